// Pure helpers of the usage chart: round y-axis ticks, and short labels with units.
import { formatTokens, formatUsd } from "@/components/usage/format";

export type Metric = "tokens" | "cost" | "requests" | "minutes";

/** About `count` ticks from 0 at a 1/2/5 × 10^k step, the last one at or above `max`. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2 && ticks.length <= count + 1; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks.at(-1)! < max) ticks.push(Number((ticks.at(-1)! + step).toPrecision(12)));
  return ticks;
}

const compact = (n: number) =>
  n >= 1000 ? Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(n) : String(n);

export function formatMinutes(minutes: number): string {
  if (minutes === 0) return "0 min";
  if (minutes < 1) return `${Math.max(1, Math.round(minutes * 60))} s`;
  if (minutes < 60) return `${Number(minutes.toFixed(minutes < 10 ? 1 : 0))} min`;
  const h = minutes / 60;
  return `${Number(h.toFixed(h < 10 ? 1 : 0))} h`;
}

/** An axis tick: short, with its unit. */
export function tickLabel(v: number, metric: Metric): string {
  switch (metric) {
    case "cost":
      return formatUsd(v);
    case "minutes":
      return formatMinutes(v);
    case "tokens":
      return `${compact(v)} tok`;
    case "requests":
      return `${compact(v)} req`;
  }
}

/** An exact value, for the tooltip and tables. */
export function exactLabel(v: number, metric: Metric): string {
  if (metric === "cost") return formatUsd(v);
  if (metric === "minutes") return `${v.toLocaleString("en-US", { maximumFractionDigits: 2 })} min`;
  return formatTokens(v);
}

/** A bucket's start as the x-axis and the tooltip show it (UTC). */
export function bucketLabel(start: string, bucket: "hour" | "day", long = false): string {
  const d = new Date(start);
  const day = d.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  if (bucket === "day") return long ? `${day} (UTC)` : day;
  const hour = `${String(d.getUTCHours()).padStart(2, "0")}:00`;
  return long
    ? `${day}, ${hour}–${String((d.getUTCHours() + 1) % 24).padStart(2, "0")}:00 UTC`
    : hour === "00:00"
      ? day
      : hour;
}
