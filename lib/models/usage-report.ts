// The dashboard's usage summary: the organization's last 30 days, totals by
// day (UTC, zero-filled) and by model. Aggregated in JS over the period's rows
// (only the five columns needed), which keeps one query for SQLite and PostgreSQL.
// Its fields are snake_case like every JSON Cabin writes.
import { getDb } from "@/lib/db";
import { listModels } from "@/lib/models/registry";

export const USAGE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface UsageTotals {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface UsageReport {
  from: string;
  to: string;
  totals: UsageTotals;
  by_day: (UsageTotals & { date: string })[];
  by_model: (UsageTotals & { model: string })[];
  /** Configured models, with the placeholder warning when one is in use. */
  models: { id: string; backend: string; placeholder: boolean; notice?: string; prices: { input: number; output: number } }[];
}

const empty = (): UsageTotals => ({ requests: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 });

function add(into: UsageTotals, row: { inputTokens: number; outputTokens: number; costUsd: number }) {
  into.requests += 1;
  into.input_tokens += row.inputTokens;
  into.output_tokens += row.outputTokens;
  into.cost_usd += row.costUsd;
}

const round = (t: UsageTotals): UsageTotals => ({ ...t, cost_usd: Math.round(t.cost_usd * 1e9) / 1e9 });

export async function getUsageReport({ organizationId, now = new Date() }: { organizationId: string; now?: Date }): Promise<UsageReport> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (USAGE_DAYS - 1) * DAY_MS);
  const rows = await getDb().usageRecord.findMany({
    where: { organizationId, createdAt: { gte: from } },
    select: { createdAt: true, model: true, inputTokens: true, outputTokens: true, costUsd: true },
  });

  const days = new Map<string, UsageTotals>();
  for (let i = 0; i < USAGE_DAYS; i++) days.set(new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10), empty());
  const models = new Map<string, UsageTotals>();
  const totals = empty();
  for (const row of rows) {
    add(totals, row);
    const day = days.get(row.createdAt.toISOString().slice(0, 10));
    if (day) add(day, row);
    let m = models.get(row.model);
    if (!m) models.set(row.model, (m = empty()));
    add(m, row);
  }

  return {
    from: from.toISOString(),
    to: now.toISOString(),
    totals: round(totals),
    by_day: [...days].map(([date, t]) => ({ date, ...round(t) })),
    by_model: [...models]
      .map(([model, t]) => ({ model, ...round(t) }))
      .sort((a, b) => b.cost_usd - a.cost_usd || b.requests - a.requests),
    models: listModels().map((m) => ({
      id: m.id,
      backend: m.metadata.backend,
      placeholder: m.metadata.placeholder === true,
      notice: m.metadata.notice,
      prices: m.metadata.prices,
    })),
  };
}
