// @needs server light postgres
// The usage_month_totals migration backfills each organization's and key's
// monthly spend from the usage rows already recorded, with the month numbering
// the ledger uses (monthOf), so budgets keep counting across the upgrade. Run
// with the migration of the suite's own engine (SQLite in a scratch file,
// PostgreSQL in a scratch schema of the suite's server) on the same rows.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { monthOf } from "@/lib/models/limits/budget";
import { migrationNames } from "../../scripts/db/migrations-fs";
import { MIGRATIONS_DIR } from "../../scripts/db/paths";

interface SqliteConnection {
  exec(sql: string): void;
  prepare(sql: string): { run(...params: unknown[]): unknown; all(): unknown[] };
  close(): void;
}

type Total = { scope: string; subjectId: string; month: number; costUsd: number };

// Across a month boundary (UTC), two keys of one organization, a key-less row, and a second organization.
const ROWS: [org: string, key: string | null, cost: number, at: string][] = [
  ["org_a", "key_1", 0.25, "2026-10-31T23:59:59.999Z"],
  ["org_a", "key_1", 0.5, "2026-11-01T00:00:00.000Z"],
  ["org_a", "key_2", 1, "2026-11-15T12:00:00.000Z"],
  ["org_a", null, 2, "2026-11-20T08:00:00.000Z"],
  ["org_b", "key_3", 4, "2026-11-30T23:00:00.000Z"],
];
const october = monthOf(new Date("2026-10-15T00:00:00Z"));
const november = monthOf(new Date("2026-11-15T00:00:00Z"));
const EXPECTED: Total[] = [
  { scope: "key", subjectId: "key_1", month: october, costUsd: 0.25 },
  { scope: "key", subjectId: "key_1", month: november, costUsd: 0.5 },
  { scope: "key", subjectId: "key_2", month: november, costUsd: 1 },
  { scope: "key", subjectId: "key_3", month: november, costUsd: 4 },
  { scope: "organization", subjectId: "org_a", month: october, costUsd: 0.25 },
  { scope: "organization", subjectId: "org_a", month: november, costUsd: 3.5 },
  { scope: "organization", subjectId: "org_b", month: november, costUsd: 4 },
];
const SELECT_TOTALS =
  `SELECT "scope", "subjectId", "month", "costUsd" FROM "usage_month_totals" ORDER BY "scope", ` +
  `"subjectId", "month"`;

function migrationSql(engine: keyof typeof MIGRATIONS_DIR): string {
  const name = migrationNames(MIGRATIONS_DIR[engine]).find((n) => n.endsWith("_usage_month_totals"))!;
  return readFileSync(path.join(MIGRATIONS_DIR[engine], name, "migration.sql"), "utf8");
}

/** SQLite, in a scratch file: DateTime stored as Prisma stores it there (ISO 8601 with "+00:00"). */
function backfillOnSqlite(): Total[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cabin-totals-"));
  const Database = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => SqliteConnection;
  const db = new Database(path.join(dir, "cabin.db"));
  try {
    db.exec(
      `CREATE TABLE "usage_records" ("id" TEXT PRIMARY KEY, "organizationId" TEXT NOT NULL, "apiKeyId" TEXT, ` +
        `"costUsd" REAL NOT NULL, "createdAt" DATETIME NOT NULL)`,
    );
    const insert = db.prepare(`INSERT INTO "usage_records" VALUES (?, ?, ?, ?, ?)`);
    ROWS.forEach(([org, key, cost, at], i) => insert.run(`u${i}`, org, key, cost, at.replace("Z", "+00:00")));
    db.exec(migrationSql("sqlite"));
    return db.prepare(SELECT_TOTALS).all() as Total[];
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** PostgreSQL, in a scratch schema of the suite's server: DateTime as Prisma's TIMESTAMP(3), UTC without a zone. */
async function backfillOnPostgres(databaseUrl: string): Promise<Total[]> {
  const schema = `totals_backfill_${process.pid}_${Date.now()}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA "${schema}"; SET search_path TO "${schema}"`);
    await client.query(
      `CREATE TABLE "usage_records" ("id" TEXT PRIMARY KEY, "organizationId" TEXT NOT NULL, "apiKeyId" TEXT, ` +
        `"costUsd" DOUBLE PRECISION NOT NULL, "createdAt" TIMESTAMP(3) NOT NULL)`,
    );
    for (const [i, [org, key, cost, at]] of ROWS.entries()) {
      await client.query(`INSERT INTO "usage_records" VALUES ($1, $2, $3, $4, $5)`, [
        `u${i}`,
        org,
        key,
        cost,
        at.replace("T", " ").replace("Z", ""),
      ]);
    }
    await client.query(migrationSql("postgresql"));
    return (await client.query<Total>(SELECT_TOTALS)).rows;
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await client.end();
  }
}

describe("usage_month_totals migration", () => {
  it("sums the recorded usage per organization, per key and per UTC month", async () => {
    const databaseUrl = inject("databaseUrl");
    const totals = databaseUrl.startsWith("postgres") ? await backfillOnPostgres(databaseUrl) : backfillOnSqlite();
    expect(totals).toEqual(EXPECTED);
  });
});
