// Usage metering: one UsageRecord per completion or embedding request, for the
// key's organization and the key, priced at the model's per-million prices.
// Writes are not awaited by the request (the client should not wait on the
// database): rows go through a BatchWriter, which retries failed writes,
// counts what it must drop, and is flushed at shutdown.
import { randomUUID } from "node:crypto";
import { dbProvider, getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";
import { getBudgetLedger } from "@/lib/models/budget";
import { BatchWriter, type BatchWriterStats } from "@/lib/models/batch-writer";
import type { Attempt } from "@/lib/models/fallback";
import type { Prices } from "@/lib/models/types";
import { observeModelRequest } from "@/lib/metrics/registry";
import { singleton, singletonKey } from "@/lib/singleton";

export type UsageEndpoint = "chat.completions" | "completions" | "embeddings" | "responses";

export interface UsageEntry {
  organizationId: string;
  apiKeyId: string | null;
  requestId: string;
  endpoint: UsageEndpoint;
  model: string;
  inputTokens: number;
  outputTokens: number;
  prices: Prices;
  latencyMs: number;
  /** HTTP status answered (499: the client went away before the end). */
  status: number;
  stream: boolean;
  /** The backends tried (fallbacks) and the one that answered, if any. */
  attempts?: Attempt[];
  backend?: string;
}

/** USD for the tokens at per-million prices, rounded to 1e-12 to drop float noise. */
export function costUsd(prices: Prices, inputTokens: number, outputTokens: number): number {
  return Math.round(((inputTokens * prices.input + outputTokens * prices.output) / 1_000_000) * 1e12) / 1e12;
}

/** A UsageRecord row; its id is fixed when the request ends, so a retried write cannot count it twice. */
function usageRow(entry: UsageEntry) {
  return {
    id: randomUUID(),
    organizationId: entry.organizationId,
    apiKeyId: entry.apiKeyId,
    requestId: entry.requestId,
    endpoint: entry.endpoint,
    model: entry.model,
    inputTokens: entry.inputTokens,
    outputTokens: entry.outputTokens,
    costUsd: costUsd(entry.prices, entry.inputTokens, entry.outputTokens),
    latencyMs: Math.round(entry.latencyMs),
    status: entry.status,
    stream: entry.stream,
    backend: entry.backend ?? null,
    attempts: entry.attempts?.length ? JSON.stringify(entry.attempts) : null,
  };
}

type UsageRow = ReturnType<typeof usageRow>;

// One write per batch instead of a query per request keeps the database (and
// the CPU it costs) off the path of the responses. On SQLite the write runs on
// the event loop (better-sqlite3 is synchronous) and stalls whatever request is
// in flight, and Prisma's createMany costs ~12x the CPU of one multi-row INSERT
// (measured: 40 rows 188 vs 15 ms, 250 rows 1.8 s vs 47 ms on the loaded dev VM),
// so SQLite gets `insertUsageRows`; a write a second instead of ten stalls a
// tenth as many requests, and batches of at most USAGE_MAX_BATCH keep each short.
const USAGE_BATCH_DELAY_MS = 1_000;
const USAGE_MAX_BATCH = 250;

/** One INSERT for the batch, columns taken from the row (so a new UsageRecord field needs no change here). */
async function insertUsageRows(rows: UsageRow[]): Promise<void> {
  const createdAt = new Date();
  const columns = [...Object.keys(rows[0]!), "createdAt"];
  const placeholders = `(${columns.map(() => "?").join(",")})`;
  const values = rows.flatMap((row) => [...Object.values(row), createdAt]);
  const sql = `INSERT INTO "usage_records" (${columns.map((c) => `"${c}"`).join(",")}) VALUES ${rows.map(() => placeholders).join(",")}`;
  await getDb().$executeRawUnsafe(sql, ...values);
}

const writeUsageRows = async (rows: UsageRow[]): Promise<void> =>
  dbProvider() === "sqlite" ? insertUsageRows(rows) : void (await getDb().usageRecord.createMany({ data: rows }));

const usageWriterKey = singletonKey<BatchWriter<UsageRow>>("models.usageWriter");

const usageWriter = () =>
  singleton(
    usageWriterKey,
    () =>
      new BatchWriter<UsageRow>({
        write: writeUsageRows,
        requestIdOf: (row) => row.requestId,
        log: getLogger(),
        batchDelayMs: USAGE_BATCH_DELAY_MS,
        maxBatch: USAGE_MAX_BATCH,
      }),
  );

/** Queues the row and counts its cost against the budgets at once; returns the cost in USD. */
export function recordUsage(entry: UsageEntry): number {
  const row = usageRow(entry);
  observeModelRequest(entry);
  usageWriter().add(row);
  getBudgetLedger().add(row.organizationId, row.apiKeyId, row.costUsd);
  return row.costUsd;
}

/** Writes what is held, with retries, and waits for it (shutdown). */
export function flushUsage(): Promise<void> {
  return usageWriter().flush();
}

/** /api/health: rows held in memory and rows given up. */
export function usageHealth(): BatchWriterStats {
  return usageWriter().stats();
}
