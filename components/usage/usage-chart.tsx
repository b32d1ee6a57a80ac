"use client";

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { bucketLabel, exactLabel, niceTicks, tickLabel, type Metric } from "@/components/usage/chart-scale";
import type { UsageReport } from "@/components/usage/use-usage";
import { ToggleGroup } from "@/components/ui/toggle-group";

const METRICS: { value: Metric; label: string }[] = [
  { value: "tokens", label: "Tokens" },
  { value: "cost", label: "Cost" },
  { value: "requests", label: "Requests" },
  { value: "minutes", label: "Session minutes" },
];

type Bucket = UsageReport["buckets"][number];
interface Part {
  label: string;
  value: number;
  color: string;
}

/** The stacked parts of one bar, bottom first. */
function partsOf(b: Bucket, metric: Metric): Part[] {
  switch (metric) {
    case "tokens":
      return [
        { label: "Input", value: b.input_tokens, color: "fill-brand-600 bg-brand-600" },
        { label: "Output", value: b.output_tokens, color: "fill-sky-300 bg-sky-300" },
      ];
    case "minutes":
      return [
        { label: "Browser", value: b.browser_minutes, color: "fill-brand-600 bg-brand-600" },
        { label: "Desktop", value: b.desktop_minutes, color: "fill-amber-400 bg-amber-400" },
      ];
    case "cost":
      return [{ label: "Cost", value: b.cost_usd, color: "fill-brand-600 bg-brand-600" }];
    case "requests":
      return [{ label: "Requests", value: b.requests, color: "fill-brand-600 bg-brand-600" }];
  }
}

const HEIGHT = 220;
const PAD = { left: 64, right: 8, top: 10, bottom: 26 };

/** The chart's drawn width follows its box, so text stays legible on a phone. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.round(entry!.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** Bars per bucket in plain SVG with y ticks (units) and x dates; hover or arrow keys show a bucket's exact values. */
export function UsageChart({ buckets, bucket }: { buckets: Bucket[]; bucket: "hour" | "day" }) {
  const [metric, setMetric] = useState<Metric>("tokens");
  const [active, setActive] = useState<number | null>(null);
  const { ref, width } = useWidth();
  const totals = buckets.map((b) => partsOf(b, metric).reduce((s, p) => s + p.value, 0));
  const ticks = niceTicks(Math.max(0, ...totals));
  const top = ticks.at(-1)!;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = (width - PAD.left - PAD.right) / Math.max(buckets.length, 1);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const labelEvery = Math.max(1, Math.ceil(buckets.length / Math.max(2, Math.floor((width - PAD.left) / 64))));
  const shown = active !== null && active < buckets.length ? active : null;

  function onKey(e: KeyboardEvent) {
    const last = buckets.length - 1;
    const moves: Record<string, number> = {
      ArrowLeft: (shown ?? last + 1) - 1,
      ArrowRight: (shown ?? -1) + 1,
      Home: 0,
      End: last,
    };
    if (!(e.key in moves)) return;
    e.preventDefault();
    setActive(Math.min(last, Math.max(0, moves[e.key]!)));
  }

  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <ToggleGroup label="Chart metric" look="segmented" options={METRICS} value={metric} onChange={setMetric} />
        <p className="text-xs text-slate-500">
          Per {bucket} (UTC) · hover a bar, or focus the chart and use the arrow keys
        </p>
      </div>
      <div ref={ref} className="relative">
        <div
          tabIndex={0}
          role="group"
          aria-label={
            `${METRICS.find((m) => m.value === metric)!.label} per ${bucket}; arrow keys step through ` +
            `the ${bucket}s`
          }
          onKeyDown={onKey}
          onFocus={() => setActive((a) => a ?? buckets.length - 1)}
          onBlur={() => setActive(null)}
          onMouseLeave={() => setActive(null)}
          className="rounded-md focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <svg width={width} height={HEIGHT} className="block max-w-full" aria-hidden data-testid="usage-chart">
            {ticks.map((t) => (
              <g key={t}>
                <line
                  x1={PAD.left}
                  x2={width - PAD.right}
                  y1={y(t)}
                  y2={y(t)}
                  className={t === 0 ? "stroke-slate-400" : "stroke-slate-100"}
                />
                <text
                  x={PAD.left - 6}
                  y={y(t)}
                  dy="0.32em"
                  textAnchor="end"
                  className="fill-slate-500 text-[11px] tabular-nums"
                >
                  {tickLabel(t, metric)}
                </text>
              </g>
            ))}
            {buckets.map((b, i) => {
              const x = PAD.left + i * slot;
              let base = 0;
              return (
                <g key={b.start} data-testid="usage-chart-bar" onMouseEnter={() => setActive(i)}>
                  <rect
                    x={x}
                    y={PAD.top}
                    width={slot}
                    height={plotH}
                    className={shown === i ? "fill-slate-100" : "fill-transparent"}
                  />
                  {partsOf(b, metric).map((p) => {
                    const y0 = y(base);
                    base += p.value;
                    const h = y0 - y(base);
                    return h > 0 ? (
                      <rect
                        key={p.label}
                        x={x + (slot - barW) / 2}
                        y={y0 - h}
                        width={barW}
                        height={h}
                        className={p.color}
                      />
                    ) : null;
                  })}
                  {i % labelEvery === 0 && (
                    <text x={x + slot / 2} y={HEIGHT - 8} textAnchor="middle" className="fill-slate-500 text-[11px]">
                      {bucketLabel(b.start, bucket)}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
        </div>
        {shown !== null && (
          <div
            role="status"
            data-testid="usage-chart-tooltip"
            className={
              "pointer-events-none absolute top-0 z-10 w-max max-w-[220px] rounded-md border border-slate-200 " +
              "bg-white px-3 py-2 text-xs shadow-lg"
            }
            style={{
              left: Math.min(Math.max(0, PAD.left + shown * slot + slot / 2 - 90), width - 200),
            }}
          >
            <p className="font-semibold text-slate-900">{bucketLabel(buckets[shown]!.start, bucket, true)}</p>
            {partsOf(buckets[shown]!, metric).map((p) => (
              <p key={p.label} className="mt-0.5 flex items-center gap-1.5 tabular-nums text-slate-700">
                <span className={`inline-block h-2 w-2 rounded-sm ${p.color}`} aria-hidden />
                {p.label}: {exactLabel(p.value, metric)}
              </p>
            ))}
          </div>
        )}
      </div>
      {(metric === "tokens" || metric === "minutes") && (
        <p className="mt-1 flex gap-4 text-xs text-slate-500">
          {partsOf(buckets[0] ?? ({} as Bucket), metric).map((p) => (
            <span key={p.label}>
              <span className={`mr-1 inline-block h-2 w-2 ${p.color}`} aria-hidden />
              {p.label}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
