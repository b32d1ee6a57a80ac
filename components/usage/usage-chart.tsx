"use client";

import { useState } from "react";
import { formatDay, formatTokens, formatUsd } from "@/components/usage/format";
import type { UsageReport } from "@/components/usage/use-usage";
import { ToggleGroup } from "@/components/ui/toggle-group";

type Metric = "tokens" | "cost" | "requests";

const METRICS: { value: Metric; label: string }[] = [
  { value: "tokens", label: "Tokens" },
  { value: "cost", label: "Cost" },
  { value: "requests", label: "Requests" },
];

const WIDTH = 720;
const HEIGHT = 200;
const PAD_LEFT = 8;
const PAD_BOTTOM = 22;

type Day = UsageReport["by_day"][number];
const valueOf = (d: Day, m: Metric) => (m === "tokens" ? d.input_tokens + d.output_tokens : m === "cost" ? d.cost_usd : d.requests);
const format = (v: number, m: Metric) => (m === "cost" ? formatUsd(v) : formatTokens(v));

/** Bars per day in plain SVG: tokens stack input (dark) under output (light). */
export function UsageChart({ days }: { days: Day[] }) {
  const [metric, setMetric] = useState<Metric>("tokens");
  const max = Math.max(...days.map((d) => valueOf(d, metric)), 0);
  const slot = (WIDTH - PAD_LEFT) / Math.max(days.length, 1);
  const barWidth = Math.max(2, slot * 0.7);
  const scale = (v: number) => (max > 0 ? (v / max) * (HEIGHT - PAD_BOTTOM - 8) : 0);
  const total = days.reduce((s, d) => s + valueOf(d, metric), 0);

  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <ToggleGroup label="Chart metric" look="segmented" options={METRICS} value={metric} onChange={setMetric} />
        <p className="text-xs text-slate-500">
          Peak day: {format(max, metric)} · 30-day total: {format(total, metric)}
        </p>
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-52 w-full"
        role="img"
        aria-label={`${METRICS.find((m) => m.value === metric)!.label} per day, last ${days.length} days`}
        data-testid="usage-chart"
      >
        <line x1={PAD_LEFT} x2={WIDTH} y1={HEIGHT - PAD_BOTTOM} y2={HEIGHT - PAD_BOTTOM} className="stroke-slate-300" />
        {days.map((d, i) => {
          const x = PAD_LEFT + i * slot + (slot - barWidth) / 2;
          const base = HEIGHT - PAD_BOTTOM;
          const label = `${formatDay(d.date)}: ${format(valueOf(d, metric), metric)}`;
          const inputH = metric === "tokens" ? scale(d.input_tokens) : scale(valueOf(d, metric));
          const outputH = metric === "tokens" ? scale(d.output_tokens) : 0;
          return (
            <g key={d.date}>
              <title>{metric === "tokens" ? `${label} (${formatTokens(d.input_tokens)} in, ${formatTokens(d.output_tokens)} out)` : label}</title>
              <rect x={x} y={base - inputH} width={barWidth} height={inputH} className="fill-brand-600" />
              {outputH > 0 && <rect x={x} y={base - inputH - outputH} width={barWidth} height={outputH} className="fill-brand-100" />}
              {(i % 5 === 0 || i === days.length - 1) && (
                <text x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-500 text-[10px]">
                  {formatDay(d.date)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {metric === "tokens" && (
        <p className="mt-1 flex gap-4 text-xs text-slate-500">
          <span><span className="mr-1 inline-block h-2 w-2 bg-brand-600" aria-hidden />Input</span>
          <span><span className="mr-1 inline-block h-2 w-2 bg-brand-100" aria-hidden />Output</span>
        </p>
      )}
    </div>
  );
}
