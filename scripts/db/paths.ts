// Where the schema files and migration folders live. Resolved from this file
// (scripts are only run by tsx/vitest, never bundled), so commands work from
// any working directory.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type Provider = "sqlite" | "postgresql";

/** The hand-edited source schema (SQLite). */
export const SOURCE_SCHEMA = path.join(ROOT, "prisma/schema.prisma");
/** Derived from SOURCE_SCHEMA by `writePostgresSchema`; never edit by hand. */
export const POSTGRES_SCHEMA = path.join(ROOT, "prisma/postgres/schema.prisma");

export const SCHEMA_FILE: Record<Provider, string> = {
  sqlite: SOURCE_SCHEMA,
  postgresql: POSTGRES_SCHEMA,
};

export const MIGRATIONS_DIR: Record<Provider, string> = {
  sqlite: path.join(ROOT, "prisma/migrations"),
  postgresql: path.join(ROOT, "prisma/postgres/migrations"),
};

export const GENERATED_DIR: Record<Provider, string> = {
  sqlite: path.join(ROOT, "lib/generated/sqlite"),
  postgresql: path.join(ROOT, "lib/generated/postgres"),
};

/** Path relative to the repo root, for messages. */
export function rel(p: string): string {
  return path.relative(ROOT, p) || ".";
}
