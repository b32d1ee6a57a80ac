// Usage metering: one UsageRecord per completion or embedding request, for the
// key's organization and the key, priced at the model's per-million prices.
// Database writes are not awaited by the request (the client should not wait on
// the database): each row is appended to the usage journal (UsageJournal, a
// write-ahead the next start replays) before the answer is sent, then goes
// through a BatchWriter, which retries failed writes, counts what it must drop,
// and is flushed at shutdown.
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import { channel } from "node:diagnostics_channel";
import { getDb } from "@/lib/db";
import { parseDatabaseUrl } from "@/lib/db-url";
import { dataDir, databaseUrl } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { getBudgetLedger, monthOf, type BudgetScope } from "@/lib/models/limits/budget";
import { BatchWriter, type BatchWriterStats } from "@/lib/models/usage/batch-writer";
import type { Attempt } from "@/lib/models/generation/fallback";
import type { Prices } from "@/lib/models/types";
import { observeModelRequest } from "@/lib/metrics/registry";
import { peekSingleton, singleton, singletonKey } from "@/lib/singleton";
import { insertSql, SqliteWriterThread } from "@/lib/models/usage/usage-sqlite-worker";
import { UsageJournal } from "@/lib/models/usage/usage-journal";

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
function usageRow(entry: UsageEntry, cost: number) {
  return {
    id: randomUUID(),
    organizationId: entry.organizationId,
    apiKeyId: entry.apiKeyId,
    requestId: entry.requestId,
    endpoint: entry.endpoint,
    model: entry.model,
    inputTokens: entry.inputTokens,
    outputTokens: entry.outputTokens,
    costUsd: cost,
    latencyMs: Math.round(entry.latencyMs),
    status: entry.status,
    stream: entry.stream,
    backend: entry.backend ?? null,
    attempts: entry.attempts?.length ? JSON.stringify(entry.attempts) : null,
  };
}

type UsageRow = ReturnType<typeof usageRow>;

/** A row on its way to the database, with the journal segment that holds it until it is there. */
interface JournaledRow {
  row: UsageRow;
  segment: number;
}

const journalKey = singletonKey<UsageJournal<UsageRow>>("models.usageJournal");
const usageJournal = () =>
  singleton(journalKey, () => new UsageJournal<UsageRow>(path.join(dataDir(), "usage-journal")));

// One write per batch instead of a query per request keeps the database (and
// the CPU it costs) off the path of the responses. On SQLite the batch goes to
// a writer thread (SqliteWriterThread: better-sqlite3 is synchronous, and an
// INSERT on the event loop stalled every request in flight, the gateway's p99);
// PostgreSQL's driver is asynchronous, so its createMany stays on this thread.
// Batches of at most USAGE_MAX_BATCH keep each write short.
const USAGE_BATCH_DELAY_MS = 1_000;
const USAGE_MAX_BATCH = 250;

const sqliteWriterKey = singletonKey<SqliteWriterThread>("models.usageSqliteWriter");
const sqliteWriter = (file: string) => singleton(sqliteWriterKey, () => new SqliteWriterThread(file));

/** The cells as Prisma stores them on SQLite: booleans as 0/1, DateTime as ISO 8601 with "+00:00". */
const sqliteCell = (value: string | number | boolean | null) => (typeof value === "boolean" ? (value ? 1 : 0) : value);

/** An organization's or key's cost in one batch, to add to its month's total. */
type TotalIncrement = [scope: BudgetScope, subjectId: string, month: number, costUsd: number];

/** The batch's costs summed per organization and per key, for usage_month_totals (BudgetLedger reads them). */
function monthTotals(rows: UsageRow[], month: number): TotalIncrement[] {
  const sums = new Map<string, TotalIncrement>();
  const add = (scope: BudgetScope, subjectId: string, cost: number) => {
    const key = `${scope}:${subjectId}`;
    const sum = sums.get(key);
    if (sum) sum[3] += cost;
    else sums.set(key, [scope, subjectId, month, cost]);
  };
  for (const row of rows) {
    if (row.costUsd <= 0) continue;
    add("organization", row.organizationId, row.costUsd);
    if (row.apiKeyId) add("key", row.apiKeyId, row.costUsd);
  }
  return [...sums.values()];
}

const ADD_TO_MONTH_TOTAL_SQL =
  'INSERT INTO "usage_month_totals" ("scope", "subjectId", "month", "costUsd") VALUES (?, ?, ?, ?) ' +
  'ON CONFLICT ("scope", "subjectId", "month") DO UPDATE SET "costUsd" = "usage_month_totals"."costUsd" + ' +
  'excluded."costUsd"';

/**
 * One transaction for the batch and its month totals, columns taken from the row
 * (so a new UsageRecord field needs no change here).
 */
function insertUsageRows(file: string, rows: UsageRow[], now: Date): Promise<void> {
  const createdAt = now.toISOString().replace("Z", "+00:00");
  const columns = [...Object.keys(rows[0]!), "createdAt"];
  const cells = rows.map((row) => [...Object.values(row).map(sqliteCell), createdAt]);
  return sqliteWriter(file).write([
    { sql: insertSql("usage_records", columns), rows: cells },
    { sql: ADD_TO_MONTH_TOTAL_SQL, rows: monthTotals(rows, monthOf(now)) },
  ]);
}

/** Through Prisma (PostgreSQL, in-memory SQLite): the rows and the month totals in one transaction. */
async function createUsageRows(rows: UsageRow[], now: Date): Promise<void> {
  const db = getDb();
  await db.$transaction([
    db.usageRecord.createMany({ data: rows.map((row) => ({ ...row, createdAt: now })) }),
    ...monthTotals(rows, monthOf(now)).map(([scope, subjectId, month, costUsd]) =>
      db.usageMonthTotal.upsert({
        where: { scope_subjectId_month: { scope, subjectId, month } },
        create: { scope, subjectId, month, costUsd },
        update: { costUsd: { increment: costUsd } },
      }),
    ),
  ]);
}

/** Each batch write's size and duration, for whoever subscribes (bench/server-probe.mjs); free when nobody does. */
const usageWriteChannel = channel("cabin:usage-write");

async function writeUsageRows(journaled: JournaledRow[]): Promise<void> {
  const started = performance.now();
  const rows = journaled.map((item) => item.row);
  const db = parseDatabaseUrl(databaseUrl());
  // An in-memory database is this connection's own: another thread cannot reach it.
  // One clock for the rows' createdAt and the month their cost is added to.
  const now = new Date();
  if (db.provider === "sqlite" && db.file !== ":memory:") await insertUsageRows(db.file, rows, now);
  else await createUsageRows(rows, now);
  const journal = usageJournal();
  for (const item of journaled) journal.written(item.segment);
  if (usageWriteChannel.hasSubscribers)
    usageWriteChannel.publish({ rows: rows.length, ms: performance.now() - started });
}

const usageWriterKey = singletonKey<BatchWriter<JournaledRow>>("models.usageWriter");

const usageWriter = () =>
  singleton(
    usageWriterKey,
    () =>
      new BatchWriter<JournaledRow>({
        write: writeUsageRows,
        requestIdOf: (item) => item.row.requestId,
        log: getLogger(),
        batchDelayMs: USAGE_BATCH_DELAY_MS,
        maxBatch: USAGE_MAX_BATCH,
      }),
  );

/**
 * Counts the cost against the budgets at once (the next request's check sees it),
 * journals the row (so a crash after the answer cannot lose it) and returns the cost
 * in USD; the batch write and the metrics follow in `setImmediate`. That runs once
 * the microtasks of this turn are done, which write the answer that carries the cost
 * (`modelFastPath` ends it in the same turn), and before any later request is read;
 * so their CPU is spent after the client has its answer, not before.
 */
export function recordUsage(entry: UsageEntry): number {
  const cost = costUsd(entry.prices, entry.inputTokens, entry.outputTokens);
  getBudgetLedger().add(entry.organizationId, entry.apiKeyId, cost);
  const row = usageRow(entry, cost);
  const segment = usageJournal().append(row);
  setImmediate(() => {
    observeModelRequest(entry);
    usageWriter().add({ row, segment });
  });
  return cost;
}

/** Writes what is held, with retries, and waits for it (shutdown). */
export async function flushUsage(): Promise<void> {
  // Rows recordUsage has deferred are queued as immediates; this one runs after them.
  await new Promise((resolve) => setImmediate(resolve));
  await usageWriter().flush();
  peekSingleton(journalKey)?.close();
  await peekSingleton(sqliteWriterKey)?.close();
}

/** /api/health: rows held in memory and rows given up. */
export function usageHealth(): BatchWriterStats {
  return usageWriter().stats();
}

/**
 * At start-up: the rows earlier processes journaled and did not write (a crash between the answer
 * and the batch write) are written now, with their month totals; rows already in the database are
 * skipped by id, so a row is never counted twice. The journal files are deleted once that committed.
 */
export async function replayUsageJournal(): Promise<number> {
  const { entries, files } = usageJournal().leftBehind();
  const db = getDb();
  let replayed = 0;
  for (let from = 0; from < entries.length; from += USAGE_MAX_BATCH) {
    const chunk = entries.slice(from, from + USAGE_MAX_BATCH);
    const stored = await db.usageRecord.findMany({
      where: { id: { in: chunk.map((entry) => entry.row.id) } },
      select: { id: true },
    });
    const known = new Set(stored.map((row) => row.id));
    const unwritten = chunk.filter((entry) => !known.has(entry.row.id));
    if (unwritten.length === 0) continue;
    // Deleted since: an organization's rows go with it (as its cascade does), a deleted key's row stays unnamed.
    const [orgs, keys] = await Promise.all([
      db.organization.findMany({
        where: { id: { in: unwritten.map((e) => e.row.organizationId) } },
        select: { id: true },
      }),
      db.apiKey.findMany({
        where: { id: { in: unwritten.flatMap((e) => e.row.apiKeyId ?? []) } },
        select: { id: true },
      }),
    ]);
    const liveOrgs = new Set(orgs.map((row) => row.id));
    const liveKeys = new Set(keys.map((row) => row.id));
    const missing = unwritten
      .filter((entry) => liveOrgs.has(entry.row.organizationId))
      .map((entry) => ({
        ...entry,
        row: {
          ...entry.row,
          apiKeyId: entry.row.apiKeyId && liveKeys.has(entry.row.apiKeyId) ? entry.row.apiKeyId : null,
        },
      }));
    if (missing.length === 0) continue;
    const byMonth = new Map<number, UsageRow[]>();
    for (const entry of missing) {
      const month = monthOf(new Date(entry.at));
      byMonth.set(month, [...(byMonth.get(month) ?? []), entry.row]);
    }
    const totals = [...byMonth].flatMap(([month, rows]) => monthTotals(rows, month));
    await db.$transaction([
      db.usageRecord.createMany({ data: missing.map((entry) => ({ ...entry.row, createdAt: new Date(entry.at) })) }),
      ...totals.map(([scope, subjectId, month, costUsd]) =>
        db.usageMonthTotal.upsert({
          where: { scope_subjectId_month: { scope, subjectId, month } },
          create: { scope, subjectId, month, costUsd },
          update: { costUsd: { increment: costUsd } },
        }),
      ),
    ]);
    replayed += missing.length;
  }
  for (const file of files) await rm(file, { force: true });
  if (replayed)
    getLogger().warn(
      { rows: replayed },
      "usage rows replayed from the journal (the last run ended before writing them)",
    );
  return replayed;
}
