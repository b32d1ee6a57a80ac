"use client";

import { Alert, Card } from "@/components/ui/card";
import { formatTokens, formatUsd } from "@/components/usage/format";
import { UsageChart } from "@/components/usage/usage-chart";
import { DayTable, ModelTable } from "@/components/usage/usage-tables";
import { useUsage } from "@/components/usage/use-usage";

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{value}</p>
    </div>
  );
}

export function UsageDashboard() {
  const usage = useUsage();
  if (usage.isPending) return <p className="text-sm text-slate-500">Loading usage…</p>;
  if (usage.error) return <Alert>{usage.error.message}</Alert>;
  const report = usage.data;
  const placeholders = report.models.filter((m) => m.placeholder);

  return (
    <div className="space-y-6">
      {placeholders.length > 0 && (
        <Alert tone="info">
          <strong>Placeholder model in use</strong> ({placeholders.map((m) => m.id).join(", ")}): {placeholders[0]!.notice}
        </Alert>
      )}
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="usage-totals">
        <Stat label="Requests" value={formatTokens(report.totals.requests)} />
        <Stat label="Input tokens" value={formatTokens(report.totals.input_tokens)} />
        <Stat label="Output tokens" value={formatTokens(report.totals.output_tokens)} />
        <Stat label="Cost" value={formatUsd(report.totals.cost_usd)} />
      </div>
      <Card title="Per day, last 30 days">
        <UsageChart days={report.by_day} />
      </Card>
      <Card title="By model">
        <ModelTable report={report} />
      </Card>
      <Card title="By day">
        <DayTable report={report} />
      </Card>
    </div>
  );
}
