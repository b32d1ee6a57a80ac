// Driver-adapter factories for the schema engine: the target database from a
// URL, and throwaway in-memory databases used to replay migration histories.
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { Provider } from "./paths";
import { parseDatabaseUrl } from "../../lib/db-url";

export interface AdapterTarget {
  provider: Provider;
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** Releases what the factory itself holds (e.g. an in-memory PGlite). */
  close?: () => Promise<void>;
}

/** The database named by a DATABASE_URL; creates a SQLite file's folder. */
export function targetFromUrl(url: string): AdapterTarget {
  const parsed = parseDatabaseUrl(url);
  if (parsed.provider === "sqlite") {
    if (parsed.file !== ":memory:") fs.mkdirSync(path.dirname(parsed.file), { recursive: true });
    return { provider: "sqlite", factory: new PrismaBetterSqlite3({ url: parsed.file }) };
  }
  return { provider: "postgresql", factory: new PrismaPg({ connectionString: parsed.url }) };
}

/**
 * An empty in-memory database of `provider`: SQLite `:memory:`, or PGlite
 * (PostgreSQL compiled to WebAssembly) so creating PostgreSQL migrations needs
 * no server. Imported lazily: PGlite is a dev dependency and slow to load.
 */
export async function throwawayTarget(provider: Provider): Promise<AdapterTarget> {
  if (provider === "sqlite") {
    return { provider, factory: new PrismaBetterSqlite3({ url: ":memory:" }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const db = new PGlite();
  return {
    provider,
    factory: new PrismaPGlite(db) as unknown as SqlMigrationAwareDriverAdapterFactory,
    // The PGlite adapter's dispose() is a no-op; close the instance ourselves.
    close: () => db.close(),
  };
}
