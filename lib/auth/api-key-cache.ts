// Resolved API keys kept in memory, so an authenticated request (every /v1
// call) does not cost a database query: through Prisma that is 0.3–0.7 ms, a
// third of the model gateway's budget. A revocation still bites on the very
// next request, in every process, because revocations are announced:
//  - in this process they empty the cache at once;
//  - with SQLite, other processes (the operator CLI) also append to a marker
//    file beside the database, and every lookup first stats it (a few µs warm): a
//    change empties the cache before the key is checked;
//  - with PostgreSQL (several instances, a CLI anywhere) they send NOTIFY;
//    every server LISTENs and caches nothing while it is not listening.
// Entries also expire after a minute, a backstop for edits made by hand.
import { appendFileSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { parseDatabaseUrl } from "@/lib/db-url";
import { databaseUrl } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { singleton, singletonKey } from "@/lib/singleton";
import type { ApiPrincipal } from "@/lib/auth/api-keys";

export interface CachedApiKey {
  principal: ApiPrincipal;
  revoked: boolean;
  /** ms since the epoch, or null: drives the throttled lastUsedAt write. */
  lastUsedAt: number | null;
}

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const PG_CHANNEL = "cabin_api_keys";
const PG_RECONNECT_MS = 2_000;

/** How revocations reach this process for one kind of database. */
interface RevocationWatch {
  /** True when cached entries may be used now; calls `clear` first when keys were revoked elsewhere. */
  fresh(clear: () => void): boolean;
  stop(): Promise<void>;
}

const markerOf = (sqliteFile: string) => `${sqliteFile}-revocations`;
/** Past this size the marker starts over (one line per revocation, ~30 bytes each). */
const MARKER_MAX_BYTES = 64 * 1024;

function markerStamp(marker: string): string {
  const s = statSync(/* turbopackIgnore: true */ marker, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.ino}:${s.mtimeNs}:${s.size}` : "none";
}

/** SQLite: a marker file beside the database, appended to on each revocation. */
function markerWatch(sqliteFile: string): RevocationWatch {
  const marker = markerOf(sqliteFile);
  let seen = markerStamp(marker);
  return {
    fresh(clear) {
      const now = markerStamp(marker);
      if (now !== seen) {
        seen = now;
        clear();
      }
      return true;
    },
    stop: async () => {},
  };
}

/** PostgreSQL: LISTEN on a channel that revocations NOTIFY (pgNotifyStatement). */
function notifyWatch(url: string, clear: () => void): RevocationWatch {
  let current: pg.Client | null = null;
  let listening = false;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = () => {
    retry = null;
    const client = (current = new pg.Client({ connectionString: url }));
    const lost = (err: unknown) => {
      if (stopped || current !== client) return;
      if (listening)
        getLogger().warn(
          { err },
          "API key revocation listener lost: keys are looked up on every request until it is back",
        );
      listening = false;
      current = null;
      clear();
      client.end().catch(() => {});
      retry = setTimeout(connect, PG_RECONNECT_MS);
      retry.unref();
    };
    client.on("notification", () => clear());
    client.on("error", lost);
    client.on("end", () => lost(new Error("connection ended")));
    client
      .connect()
      .then(() => client.query(`LISTEN ${PG_CHANNEL}`))
      .then(() => {
        if (stopped || current !== client) return;
        clear();
        listening = true;
      })
      .catch(lost);
  };
  connect();
  return {
    fresh: () => listening,
    async stop() {
      stopped = true;
      listening = false;
      if (retry) clearTimeout(retry);
      await current?.end().catch(() => {});
    },
  };
}

/** Announces a revocation on PostgreSQL; run it in the transaction that revokes. */
export const pgNotifyStatement = `SELECT pg_notify('${PG_CHANNEL}', '')`;

export class ApiKeyCache {
  private readonly entries = new Map<string, CachedApiKey & { expiresAt: number }>();
  private watch: RevocationWatch | null = null;
  /** Bumped on every clear: a lookup that overlapped a revocation is not cached. */
  private epoch = 0;
  private readonly clear = () => {
    this.entries.clear();
    this.epoch++;
  };

  /** Starts watching for revocations (server start-up); until then nothing is cached. */
  start(url = databaseUrl()): void {
    if (this.watch) return;
    const parsed = parseDatabaseUrl(url);
    if (parsed.provider === "postgresql") this.watch = notifyWatch(parsed.url, this.clear);
    else if (parsed.file !== ":memory:") this.watch = markerWatch(parsed.file);
    // An in-memory SQLite database lives in one process: every revocation is local.
    else this.watch = { fresh: () => true, stop: async () => {} };
  }

  async stop(): Promise<void> {
    const watch = this.watch;
    this.watch = null;
    this.clear();
    await watch?.stop();
  }

  /**
   * The cached key when the cache may be used now (no revocation announced
   * since, not expired), without loading and without a promise: the model
   * gateway authenticates every request, and an await is a measurable share of its hop.
   */
  cached(hash: string): CachedApiKey | undefined {
    if (!this.watch?.fresh(this.clear)) return undefined;
    const hit = this.entries.get(hash);
    return hit && hit.expiresAt > Date.now() ? hit : undefined;
  }

  /** The cached key, else `load()`'s answer, cached when no revocation overlapped the load. */
  async resolve(hash: string, load: () => Promise<CachedApiKey | null>): Promise<CachedApiKey | null> {
    const usable = this.watch?.fresh(this.clear) ?? false;
    const hit = usable ? this.entries.get(hash) : undefined;
    if (hit && hit.expiresAt > Date.now()) return hit;
    const epoch = this.epoch;
    const loaded = await load();
    if (loaded && usable && this.watch?.fresh(this.clear) && epoch === this.epoch) {
      if (this.entries.size >= MAX_ENTRIES && !this.entries.has(hash))
        this.entries.delete(this.entries.keys().next().value!);
      // The very object returned, so the caller's lastUsedAt update is seen by later hits.
      this.entries.set(hash, Object.assign(loaded, { expiresAt: Date.now() + TTL_MS }));
    }
    return loaded;
  }

  /**
   * Keys were revoked or deleted in the database: forget them here and, on
   * SQLite, tell the other processes (the server, when this is the CLI).
   * PostgreSQL processes learn it from pgNotifyStatement instead.
   */
  revoked(url = databaseUrl()): void {
    this.clear();
    const parsed = parseDatabaseUrl(url);
    if (parsed.provider === "sqlite" && parsed.file !== ":memory:") {
      const marker = markerOf(parsed.file);
      const line = `${Date.now()} ${randomBytes(8).toString("hex")}\n`;
      // Appended, so the size moves on every announcement: on kernels whose file times are
      // coarse (a few ms), two announcements within one tick would otherwise leave the same
      // stamp (markerStamp), and a key cached between them would outlive the second.
      if ((statSync(/* turbopackIgnore: true */ marker, { throwIfNoEntry: false })?.size ?? 0) >= MARKER_MAX_BYTES)
        writeFileSync(/* turbopackIgnore: true */ marker, line);
      else appendFileSync(/* turbopackIgnore: true */ marker, line);
    }
  }
}

const apiKeyCacheKey = singletonKey<ApiKeyCache>("apiKeyCache");

/** The process's one cache (Next may bundle this module into several chunks). */
export function apiKeyCache(): ApiKeyCache {
  return singleton(apiKeyCacheKey, () => new ApiKeyCache());
}

/** Server start-up (called by `boot`): cache keys from now on; the returned hook stops it. */
export async function startApiKeyCache(): Promise<() => Promise<void>> {
  apiKeyCache().start();
  return () => apiKeyCache().stop();
}
