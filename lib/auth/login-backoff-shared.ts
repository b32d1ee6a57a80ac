// Login limits shared by every node on one PostgreSQL database (docs/scale-out.md):
// a client spreading its guesses over several nodes meets the same refusals as on
// one. Both keep their state in rows and decide under the row's lock, on the
// database's clock (so the nodes' clocks do not matter):
//  - pgAuthRateLimitStorage: Better Auth's per-address limit on the credential
//    endpoints (AUTH_RATE_LIMIT_PER_MINUTE), its `customStorage`; one statement
//    per attempt, counting as Better Auth's own memory store does;
//  - pgLoginBackoffStore: the per-(account, address) backoff (LoginBackoff's
//    rules, decideBegin/decideFinish), one short transaction per step.
// Old rows are swept by whichever node notices first, at most every SWEEP_EVERY_MS.
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";
import {
  decideBegin,
  decideFinish,
  forgiveAfterMs,
  type BackoffEntry,
  type BackoffSettings,
  type LoginBackoffStore,
  type LoginOutcome,
} from "@/lib/auth/login-backoff";

const SWEEP_EVERY_MS = 10 * 60_000;
/**
 * Three short statements, but on a loaded host the wait for a pooled connection alone
 * can pass Prisma's defaults (2 s to start, 5 s in all), and a sign-in would then fail.
 */
const TRANSACTION_LIMITS = { maxWait: 10_000, timeout: 15_000 };
const DB_NOW = "EXTRACT(EPOCH FROM clock_timestamp()) * 1000";

/** Runs `sweep` in the background when the last one is SWEEP_EVERY_MS old. */
function sweeper(what: string, sweep: () => Promise<unknown>): () => void {
  let last = 0;
  return () => {
    const now = Date.now();
    if (now - last < SWEEP_EVERY_MS) return;
    last = now;
    sweep().catch((err: unknown) => getLogger().warn({ err }, `could not sweep old ${what} rows`));
  };
}

// $1 key, $2 window (ms), $3 max. Allowed: the window has passed since the last allowed
// request (the count starts over at 1), or the count is below the maximum; a refusal
// leaves the row as it was, as Better Auth's memory store does.
const CONSUME_SQL = `
INSERT INTO "auth_rate_limits" AS r ("key", "count", "lastRequestMs", "allowed")
VALUES ($1, 1, ${DB_NOW}, true)
ON CONFLICT ("key") DO UPDATE SET
  "allowed" = (EXCLUDED."lastRequestMs" - r."lastRequestMs" >= $2 OR r."count" < $3),
  "count" = CASE WHEN EXCLUDED."lastRequestMs" - r."lastRequestMs" >= $2 THEN 1
                 WHEN r."count" < $3 THEN r."count" + 1 ELSE r."count" END,
  "lastRequestMs" = CASE WHEN EXCLUDED."lastRequestMs" - r."lastRequestMs" >= $2 OR r."count" < $3
                         THEN EXCLUDED."lastRequestMs" ELSE r."lastRequestMs" END
RETURNING "allowed", CEIL(("lastRequestMs" + $2 - ${DB_NOW}) / 1000) AS "retryAfter"`;

/** Better Auth's rate-limit storage (`rateLimit.customStorage`) on the auth_rate_limits table. */
export function pgAuthRateLimitStorage() {
  // Windows are at most a minute; an hour-old row is of no use to anyone.
  const sweep = sweeper("auth_rate_limits", () =>
    getDb().$executeRawUnsafe(`DELETE FROM "auth_rate_limits" WHERE "lastRequestMs" < ${DB_NOW} - 3600000`),
  );
  return {
    async consume(
      key: string,
      rule: { window: number; max: number },
    ): Promise<{ allowed: boolean; retryAfter: number | null }> {
      sweep();
      const rows = await getDb().$queryRawUnsafe<{ allowed: boolean; retryAfter: number }[]>(
        CONSUME_SQL,
        key,
        rule.window * 1000,
        rule.max,
      );
      const row = rows[0]!;
      return row.allowed
        ? { allowed: true, retryAfter: null }
        : { allowed: false, retryAfter: Math.max(1, Number(row.retryAfter)) };
    },
  };
}

interface BackoffRow {
  failures: number;
  inFlight: number;
  inFlightSinceMs: number;
  nextAtMs: number;
  lastFailureAtMs: number;
  now: number;
}

const fromRow = (row: BackoffRow): BackoffEntry => ({
  failures: Number(row.failures),
  inFlight: Number(row.inFlight),
  inFlightSince: Number(row.inFlightSinceMs),
  nextAt: Number(row.nextAtMs),
  lastFailureAt: Number(row.lastFailureAtMs),
});

const LOCK_SQL = `SELECT "failures", "inFlight", "inFlightSinceMs", "nextAtMs", "lastFailureAtMs", ${DB_NOW} AS "now"
FROM "login_backoffs" WHERE "key" = $1 FOR UPDATE`;
const UPSERT_SQL =
  `INSERT INTO "login_backoffs" ("key", "failures", "inFlight", "inFlightSinceMs", "nextAtMs", "lastFailureAtMs")
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT ("key") DO UPDATE SET "failures" = $2, "inFlight" = $3, "inFlightSinceMs" = $4, "nextAtMs" = $5, ` +
  `"lastFailureAtMs" = $6`;

/** The backoff entries in login_backoffs: every node reads and writes the pair's row under its lock. */
export function pgLoginBackoffStore(settings: () => BackoffSettings): LoginBackoffStore {
  const sweep = sweeper("login_backoffs", () =>
    getDb().$executeRawUnsafe(
      `DELETE FROM "login_backoffs" WHERE "lastFailureAtMs" < ${DB_NOW} - $1 AND "nextAtMs" < ${DB_NOW} AND ` +
        `("inFlight" = 0 OR "inFlightSinceMs" < ${DB_NOW} - 3600000)`,
      forgiveAfterMs(settings()),
    ),
  );
  /** Locks the pair's row (made first if missing), lets `decide` change it, and writes or deletes it. */
  const step = <T>(
    key: string,
    decide: (entry: BackoffEntry | undefined, now: number) => { entry: BackoffEntry | null; answer: T },
  ) =>
    getDb().$transaction(async (tx) => {
      // A missing row is made first, so the lock below always has a row to hold.
      await tx.$executeRawUnsafe(
        `INSERT INTO "login_backoffs" ("key") VALUES ($1) ON CONFLICT ("key") DO NOTHING`,
        key,
      );
      const row = (await tx.$queryRawUnsafe<BackoffRow[]>(LOCK_SQL, key))[0]!;
      const current = fromRow(row);
      const blank = current.failures === 0 && current.inFlight === 0 && current.lastFailureAt === 0;
      const { entry, answer } = decide(blank ? undefined : current, Number(row.now));
      if (entry)
        await tx.$executeRawUnsafe(
          UPSERT_SQL,
          key,
          entry.failures,
          entry.inFlight,
          entry.inFlightSince,
          entry.nextAt,
          entry.lastFailureAt,
        );
      else await tx.$executeRawUnsafe(`DELETE FROM "login_backoffs" WHERE "key" = $1`, key);
      return answer;
    }, TRANSACTION_LIMITS);
  return {
    begin(key) {
      sweep();
      return step(key, (entry, now) => {
        const decided = decideBegin(entry, now, settings());
        return { entry: decided.entry, answer: decided.waitMs };
      });
    },
    async finish(key: string, outcome: LoginOutcome) {
      await step(key, (entry, now) => ({
        entry: entry ? decideFinish(entry, outcome, now, settings()) : null,
        answer: undefined,
      }));
    },
  };
}
