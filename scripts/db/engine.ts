// Migration commands over the WASM schema engine: deploy, create, check and
// status. The SQLite history lives in prisma/migrations, the PostgreSQL one
// in prisma/postgres/migrations; both always get the same folder names.
import fs from "node:fs";
import path from "node:path";
import type { DiagnoseMigrationHistoryOutput, SchemaEngine, SchemaFilter } from "@prisma/schema-engine-wasm";
import { type AdapterTarget, targetFromUrl, throwawayTarget } from "./adapters";
import { expectedPostgresSchema, writePostgresSchema } from "./derive-postgres";
import { loadMigrationList, migrationDirName, migrationNames, writeMigration } from "./migrations-fs";
import { MIGRATIONS_DIR, POSTGRES_SCHEMA, SCHEMA_FILE, type Provider, rel } from "./paths";
import { parseDatabaseUrl } from "../../lib/db-url";
import { withEngine } from "./wasm-engine";

const PROVIDERS: Provider[] = ["sqlite", "postgresql"];
const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] };
// Written when one provider has changes and the other has none, so both
// histories keep identical folder names.
const EMPTY_MIGRATION = "-- This is an empty migration.\n";

type Log = (line: string) => void;

function run<T>(target: AdapterTarget, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  return withEngine(target.factory, fn, target.close);
}

/** Applies pending migrations to `url`; returns the names just applied. */
export async function deployMigrations(url: string, log: Log = console.log): Promise<string[]> {
  const target = targetFromUrl(url);
  const dir = MIGRATIONS_DIR[target.provider];
  const migrationsList = loadMigrationList(dir);
  log(`deploying ${migrationsList.migrationDirectories.length} migration(s) from ${rel(dir)} (${target.provider})`);
  const { appliedMigrationNames } = await run(target, (engine) =>
    engine.applyMigrations({ migrationsList, filters: NO_FILTER }),
  );
  return appliedMigrationNames;
}

/**
 * SQL that takes a database built from `provider`'s migration history to
 * `schema`, or null when they already match. Replays the history on an empty
 * in-memory database, then diffs it against the schema.
 */
export async function pendingSql(provider: Provider, schema: string): Promise<string | null> {
  const files = [{ path: SCHEMA_FILE[provider], content: schema }];
  const migrationsList = loadMigrationList(MIGRATIONS_DIR[provider]);
  const target = await throwawayTarget(provider);
  return run(target, async (engine) => {
    await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
    const result = await engine.diff({
      from: { tag: "schemaDatasource", files, configDir: path.dirname(SCHEMA_FILE[provider]) },
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: true,
      filters: NO_FILTER,
    });
    return result.exitCode === 0 ? null : (result.stdout ?? "");
  });
}

function schemaText(provider: Provider): string {
  return fs.readFileSync(SCHEMA_FILE[provider], "utf8");
}

/**
 * Writes a migration named `name` for both providers (derives the PostgreSQL
 * schema first). Returns the folder name, or null when nothing changed.
 */
export async function createMigration(name: string, log: Log = console.log): Promise<string | null> {
  const folder = migrationDirName(name); // validates the name before any work
  if (writePostgresSchema()) log(`derived ${rel(POSTGRES_SCHEMA)}`);
  const sql: Partial<Record<Provider, string | null>> = {};
  for (const provider of PROVIDERS) {
    const started = Date.now();
    sql[provider] = await pendingSql(provider, schemaText(provider));
    log(`${provider}: ${sql[provider] === null ? "no changes" : "changes found"} (${Date.now() - started} ms)`);
  }
  if (PROVIDERS.every((p) => sql[p] === null)) {
    log("no changes");
    return null;
  }
  for (const provider of PROVIDERS) {
    const file = writeMigration(MIGRATIONS_DIR[provider], provider, folder, sql[provider] ?? EMPTY_MIGRATION);
    log(`wrote ${rel(file)}`);
  }
  return folder;
}

/** First lines of a diff script: enough to recognise the change. */
function excerpt(sql: string, max = 12): string {
  const lines = sql.trim().split("\n");
  const more = lines.length - max;
  return lines.slice(0, max).join("\n") + (more > 0 ? `\n... (${more} more lines)` : "");
}

/** Throws one message listing every way the schemas and histories disagree. */
export async function checkDrift(log: Log = console.log): Promise<void> {
  const problems: string[] = [];
  const derived = expectedPostgresSchema();
  const current = fs.existsSync(POSTGRES_SCHEMA) ? fs.readFileSync(POSTGRES_SCHEMA, "utf8") : "";
  if (current !== derived) {
    problems.push(`${rel(POSTGRES_SCHEMA)} differs from what derive-postgres.ts produces from prisma/schema.prisma`);
  }
  const [a, b] = PROVIDERS.map((p) => migrationNames(MIGRATIONS_DIR[p]).join("\n"));
  if (a !== b) {
    problems.push(
      `${rel(MIGRATIONS_DIR.sqlite)} and ${rel(MIGRATIONS_DIR.postgresql)} hold different migration folders`,
    );
  }
  for (const provider of PROVIDERS) {
    // The PostgreSQL history is checked against the derived text, so a stale
    // file is reported once (above) rather than as a second, confusing diff.
    const schema = provider === "sqlite" ? schemaText(provider) : derived;
    const sql = await pendingSql(provider, schema);
    log(`${provider}: ${sql === null ? "migrations match the schema" : "migrations are behind the schema"}`);
    if (sql !== null) {
      problems.push(`the ${provider} migrations do not reproduce the schema; missing:\n${excerpt(sql)}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `database schema drift:\n- ${problems.join("\n- ")}\n` +
        "Fix: edit prisma/schema.prisma only, then run `npm run db:migration -- <name>`.",
    );
  }
}

export interface MigrationStatus {
  provider: Provider;
  migrations: string[];
  diagnosis: DiagnoseMigrationHistoryOutput;
  upToDate: boolean;
}

/** Compares the database at `url` with its provider's migrations folder. */
export async function status(url: string): Promise<MigrationStatus> {
  const parsed = parseDatabaseUrl(url);
  const migrationsList = loadMigrationList(MIGRATIONS_DIR[parsed.provider]);
  const migrations = migrationsList.migrationDirectories.map((d) => d.path);
  // A never-deployed database: the engine errors instead of reporting it, and
  // opening a missing SQLite file would create it.
  const neverDeployed: DiagnoseMigrationHistoryOutput = {
    hasMigrationsTable: false,
    editedMigrationNames: [],
    failedMigrationNames: [],
    history: migrations.length ? { diagnostic: "databaseIsBehind", unappliedMigrationNames: migrations } : null,
  };
  let diagnosis = neverDeployed;
  if (parsed.provider === "postgresql" || fs.existsSync(parsed.file)) {
    const target = targetFromUrl(url);
    diagnosis = await run(target, (engine) =>
      engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: NO_FILTER }),
    ).catch((err: Error) => {
      if (/_prisma_migrations`? does not exist/.test(err.message)) return neverDeployed;
      throw err;
    });
  }
  const upToDate =
    diagnosis.history === null &&
    diagnosis.failedMigrationNames.length === 0 &&
    diagnosis.editedMigrationNames.length === 0;
  return { provider: parsed.provider, migrations, diagnosis, upToDate };
}
