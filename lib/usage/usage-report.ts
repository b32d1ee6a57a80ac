// The dashboard's usage summary for a date range (parseUsageRange): model
// requests, tokens and cost by bucket (hours or UTC days, zero-filled), by day,
// by model and by API key; beside them session time by kind (getSessionUsage).
// Aggregated in JS over the range's rows (only the columns needed), which keeps
// one query per table for SQLite and PostgreSQL. Fields are snake_case like
// every JSON Cabin writes.
import { getDb } from "@/lib/db";
import { getSessionUsage, type KindUsage, type SessionKind } from "@/lib/computers/session-usage";
import { listModels } from "@/lib/models/registry";
import {
  bucketIndex,
  bucketStarts,
  parseUsageRange,
  type Bucket,
  type RangePreset,
  type UsageRange,
} from "@/lib/usage-range";

export interface UsageTotals {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export type UsageBucket = UsageTotals & { start: string; browser_minutes: number; desktop_minutes: number };

export interface KeyUsage extends UsageTotals {
  /** null: the dashboard (playground, sessions created by a member). */
  key_id: string | null;
  name: string;
  prefix: string | null;
  revoked: boolean;
  session_minutes: number;
}

export interface UsageReport {
  from: string;
  to: string;
  range: { preset: RangePreset; bucket: Bucket };
  totals: UsageTotals;
  sessions: Record<SessionKind, KindUsage>;
  buckets: UsageBucket[];
  by_day: (UsageTotals & { date: string })[];
  by_model: (UsageTotals & { model: string })[];
  by_key: KeyUsage[];
  /** Configured models, with the placeholder warning when one is in use. */
  models: {
    id: string;
    backend: string;
    placeholder: boolean;
    notice?: string;
    prices: { input: number; output: number };
  }[];
}

export interface UsageRow {
  createdAt: Date;
  model: string;
  apiKeyId: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export const emptyTotals = (): UsageTotals => ({ requests: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 });

export function addRow(into: UsageTotals, row: Pick<UsageRow, "inputTokens" | "outputTokens" | "costUsd">) {
  into.requests += 1;
  into.input_tokens += row.inputTokens;
  into.output_tokens += row.outputTokens;
  into.cost_usd += row.costUsd;
}

export const roundTotals = <T extends UsageTotals>(t: T): T => ({ ...t, cost_usd: Math.round(t.cost_usd * 1e9) / 1e9 });

/** The organization's model usage rows in [from, to). */
export function loadUsageRows(organizationId: string, range: Pick<UsageRange, "from" | "to">): Promise<UsageRow[]> {
  return getDb().usageRecord.findMany({
    where: { organizationId, createdAt: { gte: range.from, lt: range.to } },
    select: { createdAt: true, model: true, apiKeyId: true, inputTokens: true, outputTokens: true, costUsd: true },
  });
}

async function keyBreakdown(
  organizationId: string,
  rows: UsageRow[],
  minutes: Map<string, number>,
): Promise<KeyUsage[]> {
  const totals = new Map<string, UsageTotals>();
  for (const row of rows) {
    const id = row.apiKeyId ?? "";
    if (!totals.has(id)) totals.set(id, emptyTotals());
    addRow(totals.get(id)!, row);
  }
  const ids = new Set([...totals.keys(), ...minutes.keys()]);
  const keys = await getDb().apiKey.findMany({
    where: { organizationId, id: { in: [...ids].filter(Boolean) } },
    select: { id: true, name: true, prefix: true, revokedAt: true },
  });
  const byId = new Map(keys.map((k) => [k.id, k]));
  return [...ids]
    .map((id) => {
      const key = byId.get(id);
      return roundTotals({
        key_id: id || null,
        name: id ? (key?.name ?? "Deleted key") : "Dashboard",
        prefix: key?.prefix ?? null,
        revoked: Boolean(key?.revokedAt),
        ...(totals.get(id) ?? emptyTotals()),
        session_minutes: minutes.get(id) ?? 0,
      });
    })
    .sort((a, b) => b.cost_usd - a.cost_usd || b.requests - a.requests || b.session_minutes - a.session_minutes);
}

export async function getUsageReport({
  organizationId,
  query = new URLSearchParams(),
  now = new Date(),
}: {
  organizationId: string;
  query?: URLSearchParams;
  now?: Date;
}): Promise<UsageReport> {
  const range = parseUsageRange(query, now);
  const starts = bucketStarts(range, range.bucket);
  const dayStarts = bucketStarts(range, "day");
  const [rows, sessions] = await Promise.all([
    loadUsageRows(organizationId, range),
    getSessionUsage({ organizationId, from: range.from, to: range.to, now, starts, bucket: range.bucket }),
  ]);

  const buckets = starts.map(emptyTotals);
  const days = dayStarts.map(emptyTotals);
  const models = new Map<string, UsageTotals>();
  const totals = emptyTotals();
  for (const row of rows) {
    const t = row.createdAt.getTime();
    addRow(totals, row);
    const b = bucketIndex(starts, range.bucket, t);
    if (b >= 0) addRow(buckets[b]!, row);
    const d = bucketIndex(dayStarts, "day", t);
    if (d >= 0) addRow(days[d]!, row);
    if (!models.has(row.model)) models.set(row.model, emptyTotals());
    addRow(models.get(row.model)!, row);
  }

  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    range: { preset: range.preset, bucket: range.bucket },
    totals: roundTotals(totals),
    sessions: sessions.by_kind,
    buckets: buckets.map((t, i) => ({
      start: new Date(starts[i]!).toISOString(),
      ...roundTotals(t),
      browser_minutes: sessions.by_bucket[i]!.browser,
      desktop_minutes: sessions.by_bucket[i]!.desktop,
    })),
    by_day: days.map((t, i) => ({ date: new Date(dayStarts[i]!).toISOString().slice(0, 10), ...roundTotals(t) })),
    by_model: [...models]
      .map(([model, t]) => ({ model, ...roundTotals(t) }))
      .sort((a, b) => b.cost_usd - a.cost_usd || b.requests - a.requests),
    by_key: await keyBreakdown(organizationId, rows, sessions.by_key),
    models: listModels(organizationId).map((m) => ({
      id: m.id,
      backend: m.metadata.backend,
      placeholder: m.metadata.placeholder === true,
      notice: m.metadata.notice,
      prices: m.metadata.prices,
    })),
  };
}
