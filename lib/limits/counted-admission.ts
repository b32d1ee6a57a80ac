// Counted limits decided atomically (docs/limits.md "Counted limits"): the count that decides
// and the write it admits happen in one transaction, under a lock on the limit's scope, so
// concurrent requests cannot all read the same count and all be let in. On PostgreSQL the
// lock is a transaction-level advisory lock on the scope's name (every node takes the same
// one); on SQLite the adapter already runs one transaction at a time, and one node owns the file.
import type { AppError } from "@/lib/api/errors";
import { dbProvider, getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/sqlite/client";

/** A transaction's client: the same model API as `getDb()`. */
export type LimitTx = Prisma.TransactionClient;

// A create waits for the creates ahead of it in the same scope, each a count and an insert.
const TRANSACTION_LIMITS = { maxWait: 10_000, timeout: 15_000 };

/** Holds the scope's lock until the transaction ends (PostgreSQL); SQLite's transactions are serial already. */
async function lockScope(tx: LimitTx, scope: string): Promise<void> {
  if (dbProvider() !== "postgresql") return;
  // hashtextextended: a 64-bit key from the scope's name, the same on every node.
  await tx.$queryRawUnsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text AS locked", scope);
}

/**
 * Runs `write` only if `count` (read under the scope's lock, in the same transaction) is below
 * `limit`; otherwise throws `refusal()`. `scope` names what is counted (e.g. an organization's
 * running tasks), so unrelated limits do not wait for each other.
 */
export function withinCountedLimit<T>(input: {
  scope: string;
  limit: number;
  count: (tx: LimitTx) => Promise<number>;
  write: (tx: LimitTx) => Promise<T>;
  refusal: () => AppError;
}): Promise<T> {
  return decide(input.scope, async (tx) => (await input.count(tx)) < input.limit, input.write, input.refusal);
}

/**
 * Runs `write` (which removes one of what is counted) only if `count`, read under the scope's
 * lock, stays above `floor` after it: the last owner of an organization cannot leave at the
 * same instant as the only other one.
 */
export function aboveCountedFloor<T>(input: {
  scope: string;
  floor: number;
  count: (tx: LimitTx) => Promise<number>;
  write: (tx: LimitTx) => Promise<T>;
  refusal: () => AppError;
}): Promise<T> {
  return decide(input.scope, async (tx) => (await input.count(tx)) - 1 >= input.floor, input.write, input.refusal);
}

/**
 * A refusal commits an empty transaction and is thrown after it rather than rolled back: on SQLite
 * the adapter has one connection, and queries other requests run meanwhile are inside the transaction.
 */
async function decide<T>(
  scope: string,
  allowed: (tx: LimitTx) => Promise<boolean>,
  write: (tx: LimitTx) => Promise<T>,
  refusal: () => AppError,
): Promise<T> {
  const outcome = await getDb().$transaction(async (tx) => {
    await lockScope(tx, scope);
    return (await allowed(tx)) ? { value: await write(tx) } : null;
  }, TRANSACTION_LIMITS);
  if (outcome === null) throw refusal();
  return outcome.value;
}
