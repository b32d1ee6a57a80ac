"use client";

import { formatDay, formatTokens, formatUsd } from "@/components/usage/format";
import type { UsageReport } from "@/components/usage/use-usage";

type Row = UsageReport["totals"] & { key: string; label: string };

function Table({ rows, first, testId }: { rows: Row[]; first: string; testId: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[520px] text-left text-sm" data-testid={testId}>
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-2 pr-3 font-medium">{first}</th>
            <th className="py-2 pr-3 text-right font-medium">Requests</th>
            <th className="py-2 pr-3 text-right font-medium">Input tokens</th>
            <th className="py-2 pr-3 text-right font-medium">Output tokens</th>
            <th className="py-2 text-right font-medium">Cost</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.key}>
              <td className="py-2 pr-3 font-medium text-slate-900">{r.label}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatTokens(r.requests)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatTokens(r.input_tokens)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatTokens(r.output_tokens)}</td>
              <td className="py-2 text-right tabular-nums">{formatUsd(r.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ModelTable({ report }: { report: UsageReport }) {
  if (report.by_model.length === 0) return <p className="text-sm text-slate-600">No model requests in the last 30 days.</p>;
  const prices = new Map(report.models.map((m) => [m.id, m.prices]));
  const rows = report.by_model.map((m) => {
    const p = prices.get(m.model);
    return { ...m, key: m.model, label: p ? `${m.model} ($${p.input} / $${p.output} per M)` : m.model };
  });
  return <Table rows={rows} first="Model" testId="usage-by-model" />;
}

export function DayTable({ report }: { report: UsageReport }) {
  const rows = report.by_day
    .filter((d) => d.requests > 0)
    .reverse()
    .map((d) => ({ ...d, key: d.date, label: formatDay(d.date) }));
  if (rows.length === 0) return <p className="text-sm text-slate-600">No model requests in the last 30 days.</p>;
  return <Table rows={rows} first="Day (UTC)" testId="usage-by-day" />;
}
