// The app's one Prisma client. Created on first use, never at import: `next
// build` imports route modules and must not open a database. Kept in a
// process-wide slot (`dbStateKey`) so Next's several bundles and dev hot
// reloads share one client instead of leaking connections.
//
// DATABASE_URL (via `databaseUrl`) picks the provider: file:<path> → embedded
// SQLite through better-sqlite3, postgresql://... → PostgreSQL through pg.
// Both generated clients share one model API, so callers get the SQLite type.
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { parseDatabaseUrl, type ParsedDatabaseUrl } from "./db-url";
import { databaseUrl } from "./env";
import { PrismaClient as PostgresPrismaClient } from "./generated/postgres/client";
import { PrismaClient } from "./generated/sqlite/client";
import { peekSingleton, setSingleton, singletonKey } from "./singleton";

export type Db = PrismaClient;
export type DbProvider = ParsedDatabaseUrl["provider"];

// Waiting for a lock beats failing with SQLITE_BUSY when the CLI and the
// server write at the same time.
const SQLITE_BUSY_TIMEOUT_MS = 5000;

interface DbState {
  client: Db;
  provider: DbProvider;
}

/** Undefined after `disconnectDb`, so the next `getDb` reopens. */
const dbStateKey = singletonKey<DbState | undefined>("db");

/**
 * The database holds key hashes, sessions' state keys and login sessions: only
 * the server's user may read it (migrations may have created it 0644 first).
 * The WAL and shared-memory files inherit nothing from it, so each is set.
 */
function restrictToOwner(file: string) {
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.chmodSync(/* turbopackIgnore: true */ name, 0o600);
    } catch {
      // Not created (yet): SQLite creates -wal/-shm lazily with the main file's mode.
    }
  }
}

/**
 * better-sqlite3 adapter whose connections run in WAL mode: readers do not
 * block the writer, which matters with a server and a CLI on one file.
 */
function sqliteAdapter(file: string): SqlDriverAdapterFactory {
  if (file !== ":memory:") fs.mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true });
  const base = new PrismaBetterSqlite3({ url: file, timeout: SQLITE_BUSY_TIMEOUT_MS });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    async connect() {
      const adapter = await base.connect();
      // synchronous=NORMAL is the recommended (and durable) pairing with WAL.
      await adapter.executeScript("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
      if (file !== ":memory:") restrictToOwner(file);
      return adapter;
    },
  };
}

/** Builds a client for an explicit URL (tests, scripts); the app uses getDb(). */
export function createDb(url: string): DbState {
  const parsed = parseDatabaseUrl(url);
  if (parsed.provider === "sqlite") {
    return { provider: "sqlite", client: new PrismaClient({ adapter: sqliteAdapter(parsed.file) }) };
  }
  const client = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: parsed.url }) });
  // Same models and queries, generated for the other provider.
  return { provider: "postgresql", client: client as unknown as Db };
}

function state(): DbState {
  let current = peekSingleton(dbStateKey);
  if (!current) setSingleton(dbStateKey, (current = createDb(databaseUrl())));
  return current;
}

/** The shared Prisma client; connects lazily on its first query. */
export function getDb(): Db {
  return state().client;
}

export function dbProvider(): DbProvider {
  return peekSingleton(dbStateKey)?.provider ?? parseDatabaseUrl(databaseUrl()).provider;
}

/** Closes the shared client (shutdown, tests); the next getDb() reopens. */
export async function disconnectDb(): Promise<void> {
  const current = peekSingleton(dbStateKey);
  setSingleton(dbStateKey, undefined);
  await current?.client.$disconnect();
}
