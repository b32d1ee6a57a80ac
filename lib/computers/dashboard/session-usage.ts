// Session time for the Usage page: minutes by kind (created_at → terminated_at,
// or now while live, clipped to the range), per chart bucket and per API key;
// live sessions now; and the peak number running at once in the range, by a
// sweep over start/end events. One indexed query of five columns, aggregated
// here, so SQLite and PostgreSQL answer alike; thousands of rows sort in ms.
import { getDb } from "@/lib/db";
import { LIVE_STATUSES } from "@/lib/computers/sessions/lifecycle";
import { bucketIndex, bucketSize, type Bucket } from "@/lib/usage-range";

export const SESSION_KINDS = ["browser", "desktop"] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

export interface SessionSpan {
  kind: string;
  apiKeyId: string | null;
  start: number;
  end: number;
}

export interface KindUsage {
  minutes: number;
  sessions: number;
  live_now: number;
  peak_concurrent: number;
}

export interface SessionUsage {
  by_kind: Record<SessionKind, KindUsage>;
  /** Minutes per bucket and kind, aligned with the report's buckets. */
  by_bucket: Record<SessionKind, number>[];
  /** Minutes per key id ("" = created in the dashboard). */
  by_key: Map<string, number>;
}

const MINUTE_MS = 60_000;
const round2 = (n: number) => Math.round(n * 100) / 100;
const isKind = (k: string): k is SessionKind => (SESSION_KINDS as readonly string[]).includes(k);

/** The most spans open at one instant; an end and a start at the same instant do not overlap. */
export function peakConcurrent(spans: { start: number; end: number }[]): number {
  const events: [number, number][] = [];
  for (const s of spans) {
    if (s.end <= s.start) continue;
    events.push([s.start, 1], [s.end, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peak = 0;
  for (const [, delta] of events) {
    open += delta;
    if (open > peak) peak = open;
  }
  return peak;
}

/** Aggregates spans already clipped to [from, to). */
export function summarizeSpans(
  spans: SessionSpan[],
  starts: number[],
  bucket: Bucket,
  liveNow: Record<SessionKind, number>,
): SessionUsage {
  const size = bucketSize(bucket);
  const by_bucket = starts.map(() => ({ browser: 0, desktop: 0 }));
  const by_key = new Map<string, number>();
  const by_kind = Object.fromEntries(
    SESSION_KINDS.map((kind) => {
      const mine = spans.filter((s) => s.kind === kind);
      const ms = mine.reduce((sum, s) => sum + Math.max(0, s.end - s.start), 0);
      return [
        kind,
        {
          minutes: round2(ms / MINUTE_MS),
          sessions: mine.length,
          live_now: liveNow[kind],
          peak_concurrent: peakConcurrent(mine),
        },
      ];
    }),
  ) as Record<SessionKind, KindUsage>;

  for (const span of spans) {
    if (!isKind(span.kind) || span.end <= span.start) continue;
    by_key.set(span.apiKeyId ?? "", (by_key.get(span.apiKeyId ?? "") ?? 0) + (span.end - span.start) / MINUTE_MS);
    // Split the span over the buckets it crosses.
    let i = Math.max(0, bucketIndex(starts, bucket, span.start));
    for (; i < starts.length && starts[i]! < span.end; i++) {
      const overlap = Math.min(span.end, starts[i]! + size) - Math.max(span.start, starts[i]!);
      if (overlap > 0) by_bucket[i]![span.kind] += overlap / MINUTE_MS;
    }
  }
  for (const b of by_bucket) for (const k of SESSION_KINDS) b[k] = round2(b[k]);
  for (const [k, v] of by_key) by_key.set(k, round2(v));
  return { by_kind, by_bucket, by_key };
}

/** Session spans of the organization overlapping [from, to), clipped to it. */
export async function loadSessionSpans(input: {
  organizationId: string;
  from: Date;
  to: Date;
  now: Date;
}): Promise<SessionSpan[]> {
  const rows = await getDb().computer.findMany({
    where: {
      organizationId: input.organizationId,
      createdAt: { lt: input.to },
      OR: [{ terminatedAt: null }, { terminatedAt: { gt: input.from } }],
    },
    select: { kind: true, apiKeyId: true, createdAt: true, terminatedAt: true, status: true },
  });
  const from = input.from.getTime();
  const to = Math.min(input.to.getTime(), input.now.getTime());
  return rows.map((r) => {
    // A row ended without a time (never expected) counts nothing rather than running forever.
    const end = r.terminatedAt?.getTime() ?? (r.status === "terminated" ? r.createdAt.getTime() : input.now.getTime());
    return { kind: r.kind, apiKeyId: r.apiKeyId, start: Math.max(from, r.createdAt.getTime()), end: Math.min(to, end) };
  });
}

export async function countLiveSessions(organizationId: string): Promise<Record<SessionKind, number>> {
  const groups = await getDb().computer.groupBy({
    by: ["kind"],
    where: { organizationId, status: { in: [...LIVE_STATUSES] } },
    _count: { _all: true },
  });
  const out: Record<SessionKind, number> = { browser: 0, desktop: 0 };
  for (const g of groups) if (isKind(g.kind)) out[g.kind] = g._count._all;
  return out;
}

export async function getSessionUsage(input: {
  organizationId: string;
  from: Date;
  to: Date;
  now: Date;
  starts: number[];
  bucket: Bucket;
}) {
  const [spans, live] = await Promise.all([loadSessionSpans(input), countLiveSessions(input.organizationId)]);
  return summarizeSpans(spans, input.starts, input.bucket, live);
}
