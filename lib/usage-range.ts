// The Usage page's date range, read from its URL query (so a link shares the
// same view): a preset (24h, 7d, 30d, month) or a custom from/to, and the
// chart buckets that fit it (hours up to two days, UTC days beyond). Pure.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";

export const RANGE_PRESETS = ["24h", "7d", "30d", "month", "custom"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export type Bucket = "hour" | "day";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** A custom range longer than this is refused: one chart, one CSV, one year. */
export const MAX_RANGE_DAYS = 366;

export interface UsageRange {
  preset: RangePreset;
  from: Date;
  to: Date;
  bucket: Bucket;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const instant = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(Date.parse(DATE_ONLY.test(v) ? `${v}T00:00:00Z` : v)), {
    message: "expected a date (YYYY-MM-DD) or an ISO timestamp",
  });

const rangeQuery = z.object({
  range: z.enum(RANGE_PRESETS).optional(),
  from: instant.optional(),
  to: instant.optional(),
});

const startOfUtcDay = (t: number) => t - (((t % DAY_MS) + DAY_MS) % DAY_MS);

/** A date-only `to` means the whole of that day. */
function parseInstant(value: string, end: boolean): Date {
  if (DATE_ONLY.test(value)) return new Date(Date.parse(`${value}T00:00:00Z`) + (end ? DAY_MS : 0));
  return new Date(value);
}

export function parseUsageRange(query: URLSearchParams, now = new Date()): UsageRange {
  const q = parseWith(rangeQuery, Object.fromEntries(query));
  const preset: RangePreset = q.range ?? (q.from || q.to ? "custom" : "30d");
  const today = startOfUtcDay(now.getTime());
  let from: Date;
  let to = now;
  switch (preset) {
    case "24h":
      from = new Date(now.getTime() - DAY_MS);
      break;
    case "7d":
      from = new Date(today - 6 * DAY_MS);
      break;
    case "30d":
      from = new Date(today - 29 * DAY_MS);
      break;
    case "month":
      from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      break;
    case "custom": {
      if (!q.from) throw new AppError("invalid_request", "A custom range needs 'from'", { param: "from" });
      from = parseInstant(q.from, false);
      to = q.to ? parseInstant(q.to, true) : now;
      if (to.getTime() <= from.getTime()) {
        throw new AppError("invalid_request", "'to' must be after 'from'", { param: "to" });
      }
      if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
        throw new AppError("invalid_request", `A range may span at most ${MAX_RANGE_DAYS} days`, { param: "to" });
      }
      break;
    }
  }
  const bucket: Bucket = to.getTime() - from.getTime() <= 2 * DAY_MS ? "hour" : "day";
  return { preset, from, to, bucket };
}

/** Bucket starts covering [from, to): whole UTC hours or days, the first one holding `from`. */
export function bucketStarts(range: Pick<UsageRange, "from" | "to">, bucket: Bucket): number[] {
  const size = bucket === "hour" ? HOUR_MS : DAY_MS;
  const first =
    bucket === "hour" ? range.from.getTime() - (range.from.getTime() % HOUR_MS) : startOfUtcDay(range.from.getTime());
  const starts: number[] = [];
  for (let t = first; t < range.to.getTime(); t += size) starts.push(t);
  return starts;
}

export const bucketSize = (bucket: Bucket) => (bucket === "hour" ? HOUR_MS : DAY_MS);

/** The index of the bucket holding `t`, or -1 outside them. */
export function bucketIndex(starts: number[], bucket: Bucket, t: number): number {
  if (starts.length === 0 || t < starts[0]!) return -1;
  const i = Math.floor((t - starts[0]!) / bucketSize(bucket));
  return i < starts.length ? i : -1;
}
