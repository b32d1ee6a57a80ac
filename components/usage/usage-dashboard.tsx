"use client";

import Link from "next/link";
import { Alert, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { formatMinutes } from "@/components/usage/chart-scale";
import { formatTokens, formatUsd } from "@/components/usage/format";
import { RangePicker, useRangeQuery } from "@/components/usage/range-picker";
import { UsageChart } from "@/components/usage/usage-chart";
import { DayTable, KeyTable, ModelTable } from "@/components/usage/usage-tables";
import { useUsage, type UsageReport } from "@/components/usage/use-usage";

function Stat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm" data-testid={testId}>
      <p className="truncate text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{value}</p>
      {hint && <p className="mt-0.5 truncate text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

function SessionStats({ report }: { report: UsageReport }) {
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="usage-sessions">
      {(["browser", "desktop"] as const).map((kind) => {
        const s = report.sessions[kind];
        const name = kind === "browser" ? "Browser" : "Desktop";
        return [
          <Stat
            key={`${kind}-time`}
            testId={`usage-${kind}-minutes`}
            label={`${name} time`}
            value={formatMinutes(s.minutes)}
            hint={`${s.sessions} session${s.sessions === 1 ? "" : "s"} in range`}
          />,
          <Stat
            key={`${kind}-live`}
            testId={`usage-${kind}-live`}
            label={`${name} live now`}
            value={String(s.live_now)}
            hint={`peak ${s.peak_concurrent} at once`}
          />,
        ];
      })}
    </div>
  );
}

function UsageLoading() {
  return (
    <div aria-busy="true" aria-label="Loading usage" className="space-y-6">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-[76px] animate-pulse rounded-lg border border-slate-200 bg-slate-50" />
        ))}
      </div>
      <div className="h-72 animate-pulse rounded-lg border border-slate-200 bg-slate-50" />
    </div>
  );
}

/** Nothing at all in the range: say how usage comes to be. */
function NothingYet() {
  return (
    <div className="space-y-2 text-sm text-slate-700" data-testid="usage-empty">
      <p className="font-medium text-slate-900">Nothing used in this range.</p>
      <p>
        Requests to the model API and browser or desktop sessions show up here. Try a model in the{" "}
        <Link href="/playground" className="font-medium text-brand-700 underline underline-offset-2">
          playground
        </Link>
        , start a session on the{" "}
        <Link href="/sessions" className="font-medium text-brand-700 underline underline-offset-2">
          Sessions page
        </Link>
        , or pick a longer range.
      </p>
    </div>
  );
}

export function UsageDashboard() {
  const { query } = useRangeQuery();
  const usage = useUsage(query);
  const report = usage.data;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <RangePicker />
        <a
          href={`/api/usage/csv?${query}`}
          download
          className={
            "inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium " +
            "text-slate-800 hover:bg-slate-100"
          }
        >
          Export CSV
        </a>
      </div>
      {usage.error ? (
        <div
          role="alert"
          className={
            "flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm " +
            "text-red-800"
          }
        >
          <p className="flex-1">The usage could not be loaded: {usage.error.message}</p>
          <Button variant="secondary" onClick={() => void usage.refetch()}>
            Retry
          </Button>
        </div>
      ) : !report ? (
        <UsageLoading />
      ) : (
        <UsageReportView report={report} />
      )}
    </div>
  );
}

function UsageReportView({ report }: { report: UsageReport }) {
  const placeholders = report.models.filter((m) => m.placeholder);
  const idle =
    report.totals.requests === 0 && report.sessions.browser.sessions === 0 && report.sessions.desktop.sessions === 0;
  const range =
    `${new Date(report.from).toISOString().slice(0, 16).replace("T", " ")} ` +
    `– ${new Date(report.to).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return (
    <>
      <p className="text-xs text-slate-500" data-testid="usage-range-label">
        {range}
      </p>
      {placeholders.length > 0 && (
        <Alert tone="info">
          <strong>Placeholder model in use</strong> ({placeholders.map((m) => m.id).join(", ")}):{" "}
          {placeholders[0]!.notice}
        </Alert>
      )}
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="usage-totals">
        <Stat label="Requests" value={formatTokens(report.totals.requests)} />
        <Stat label="Input tokens" value={formatTokens(report.totals.input_tokens)} />
        <Stat label="Output tokens" value={formatTokens(report.totals.output_tokens)} />
        <Stat label="Cost" value={formatUsd(report.totals.cost_usd)} />
      </div>
      <SessionStats report={report} />
      <Card title={report.range.bucket === "hour" ? "Per hour" : "Per day"}>
        {idle ? <NothingYet /> : <UsageChart buckets={report.buckets} bucket={report.range.bucket} />}
      </Card>
      <Card title="By API key">
        <KeyTable report={report} />
      </Card>
      <Card title="By model">
        <ModelTable report={report} />
      </Card>
      <Card title="By day">
        <DayTable report={report} />
      </Card>
    </>
  );
}
