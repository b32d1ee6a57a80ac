// Usage metering: one UsageRecord per completion or embedding request, for the
// key's organization and the key, priced at the model's per-million prices.
// Writes are not awaited by the request (the client should not wait on the
// database); they are batched and flushed at shutdown.
import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";
import type { Prices } from "@/lib/models/types";

export type UsageEndpoint = "chat.completions" | "completions" | "embeddings";

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
}

/** USD for the tokens at per-million prices, rounded to 1e-12 to drop float noise. */
export function costUsd(prices: Prices, inputTokens: number, outputTokens: number): number {
  return Math.round(((inputTokens * prices.input + outputTokens * prices.output) / 1_000_000) * 1e12) / 1e12;
}

// Rows are written in batches shortly after the requests end: one createMany
// instead of a query per request keeps the database (and the CPU it costs)
// off the path of the responses.
const BATCH_DELAY_MS = 100;

interface UsageWriter {
  queue: UsageEntry[];
  timer: NodeJS.Timeout | null;
  inFlight: Set<Promise<void>>;
}

const g = globalThis as unknown as { cabinUsageWriter?: UsageWriter };
const writer: UsageWriter = (g.cabinUsageWriter ??= { queue: [], timer: null, inFlight: new Set() });

function writeBatch(): Promise<void> {
  writer.timer = null;
  const batch = writer.queue.splice(0);
  if (batch.length === 0) return Promise.resolve();
  const write = getDb()
    .usageRecord.createMany({
      data: batch.map((entry) => ({
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
      })),
    })
    .then(() => undefined)
    .catch((err) =>
      getLogger().error({ err, requests: batch.map((e) => e.requestId) }, "usage records could not be written"),
    )
    .finally(() => writer.inFlight.delete(write));
  writer.inFlight.add(write);
  return write;
}

export function recordUsage(entry: UsageEntry): void {
  writer.queue.push(entry);
  writer.timer ??= setTimeout(writeBatch, BATCH_DELAY_MS);
}

/** Writes what is queued and waits for writes in flight (shutdown). */
export async function flushUsage(): Promise<void> {
  if (writer.timer) clearTimeout(writer.timer);
  await writeBatch();
  while (writer.inFlight.size) await Promise.allSettled([...writer.inFlight]);
}
