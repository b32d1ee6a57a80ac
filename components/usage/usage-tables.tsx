"use client";

import { formatMinutes } from "@/components/usage/chart-scale";
import { formatDay, formatTokens, formatUsd } from "@/components/usage/format";
import type { UsageReport } from "@/components/usage/use-usage";

type Row = UsageReport["totals"] & { key: string; label: string; sub?: string; minutes?: number };

/**
 * Wide on a desktop; on a phone it scrolls inside its card, never the page, and says so (Cost and
 * the later columns start off-screen there).
 */
function Table({
  rows,
  first,
  testId,
  withMinutes = false,
}: {
  rows: Row[];
  first: string;
  testId: string;
  withMinutes?: boolean;
}) {
  const th = "py-2 pr-3 text-right font-medium";
  const td = "py-2 pr-3 text-right tabular-nums";
  return (
    <div>
      <p className="mb-2 text-xs text-slate-500 md:hidden" data-testid="usage-scroll-hint">
        The table scrolls sideways for more columns.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[560px] text-left text-sm" data-testid={testId}>
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-2 pr-3 font-medium">{first}</th>
              <th className={th}>Requests</th>
              <th className={th}>Input tokens</th>
              <th className={th}>Output tokens</th>
              <th className={th}>Cost</th>
              {withMinutes && <th className={th}>Session time</th>}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.key}>
                <td className="py-2 pr-3">
                  <span className="font-medium text-slate-900">{r.label}</span>
                  {r.sub && <span className="ml-2 font-mono text-xs text-slate-500">{r.sub}</span>}
                </td>
                <td className={td}>{formatTokens(r.requests)}</td>
                <td className={td}>{formatTokens(r.input_tokens)}</td>
                <td className={td}>{formatTokens(r.output_tokens)}</td>
                <td className={td}>{formatUsd(r.cost_usd)}</td>
                {withMinutes && <td className={td}>{formatMinutes(r.minutes ?? 0)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

const Empty = ({ children }: { children: string }) => <p className="text-sm text-slate-600">{children}</p>;

export function ModelTable({ report }: { report: UsageReport }) {
  if (report.by_model.length === 0) return <Empty>No model requests in this range.</Empty>;
  const prices = new Map(report.models.map((m) => [m.id, m.prices]));
  const rows = report.by_model.map((m) => {
    const p = prices.get(m.model);
    return { ...m, key: m.model, label: m.model, sub: p ? `$${p.input} / $${p.output} per M` : undefined };
  });
  return <Table rows={rows} first="Model" testId="usage-by-model" />;
}

export function KeyTable({ report }: { report: UsageReport }) {
  if (report.by_key.length === 0) return <Empty>No requests or sessions in this range.</Empty>;
  const rows = report.by_key.map((k) => ({
    ...k,
    key: k.key_id ?? "dashboard",
    label: k.revoked ? `${k.name} (revoked)` : k.name,
    sub: k.prefix ?? undefined,
    minutes: k.session_minutes,
  }));
  return <Table rows={rows} first="API key" testId="usage-by-key" withMinutes />;
}

export function DayTable({ report }: { report: UsageReport }) {
  const rows = report.by_day
    .filter((d) => d.requests > 0)
    .reverse()
    .map((d) => ({ ...d, key: d.date, label: formatDay(d.date) }));
  if (rows.length === 0) return <Empty>No model requests in this range.</Empty>;
  return <Table rows={rows} first="Day (UTC)" testId="usage-by-day" />;
}
