// The usage_month_totals migration on SQLite backfills each organization's and
// key's monthly spend from the usage rows already recorded, with the month
// numbering the ledger uses (monthOf), so budgets keep counting across the upgrade.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { monthOf } from "@/lib/models/budget";
import { migrationNames } from "../../scripts/db/migrations-fs";
import { MIGRATIONS_DIR } from "../../scripts/db/paths";

interface Connection {
  exec(sql: string): void;
  prepare(sql: string): { run(...params: unknown[]): unknown; all(): unknown[] };
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => Connection;

const name = migrationNames(MIGRATIONS_DIR.sqlite).find((n) => n.endsWith("_usage_month_totals"))!;
const migration = readFileSync(path.join(MIGRATIONS_DIR.sqlite, name, "migration.sql"), "utf8");

describe("usage_month_totals migration (SQLite)", () => {
  it("sums the recorded usage per organization, per key and per UTC month", () => {
    const db = new Database(":memory:");
    try {
      db.exec(`CREATE TABLE "usage_records" ("id" TEXT PRIMARY KEY, "organizationId" TEXT NOT NULL, "apiKeyId" TEXT, "costUsd" REAL NOT NULL, "createdAt" DATETIME NOT NULL)`);
      const insert = db.prepare(`INSERT INTO "usage_records" VALUES (?, ?, ?, ?, ?)`);
      // Stored as Prisma stores DateTime on SQLite: ISO 8601 with "+00:00".
      const rows: [string, string | null, number, string][] = [
        ["org_a", "key_1", 0.25, "2026-10-31T23:59:59.999+00:00"],
        ["org_a", "key_1", 0.5, "2026-11-01T00:00:00.000+00:00"],
        ["org_a", "key_2", 1, "2026-11-15T12:00:00.000+00:00"],
        ["org_a", null, 2, "2026-11-20T08:00:00.000+00:00"],
        ["org_b", "key_3", 4, "2026-11-30T23:00:00.000+00:00"],
      ];
      rows.forEach(([org, key, cost, at], i) => insert.run(`u${i}`, org, key, cost, at));
      db.exec(migration);

      const october = monthOf(new Date("2026-10-15T00:00:00Z"));
      const november = monthOf(new Date("2026-11-15T00:00:00Z"));
      const totals = db.prepare(`SELECT "scope", "subjectId", "month", "costUsd" FROM "usage_month_totals" ORDER BY "scope", "subjectId", "month"`).all();
      expect(totals).toEqual([
        { scope: "key", subjectId: "key_1", month: october, costUsd: 0.25 },
        { scope: "key", subjectId: "key_1", month: november, costUsd: 0.5 },
        { scope: "key", subjectId: "key_2", month: november, costUsd: 1 },
        { scope: "key", subjectId: "key_3", month: november, costUsd: 4 },
        { scope: "organization", subjectId: "org_a", month: october, costUsd: 0.25 },
        { scope: "organization", subjectId: "org_a", month: november, costUsd: 3.5 },
        { scope: "organization", subjectId: "org_b", month: november, costUsd: 4 },
      ]);
    } finally {
      db.close();
    }
  });
});
