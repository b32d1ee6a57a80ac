// @needs nothing
// SqliteWriterThread against a real SQLite file: rows committed by the worker
// thread are read back by another connection; a failed write rejects (so the
// usage BatchWriter retries it) and leaves the thread usable.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { insertSql, SqliteWriterThread } from "@/lib/models/usage/usage-sqlite-worker";

// better-sqlite3 ships no types (Prisma's adapter wraps it); the few calls used here.
interface Statement {
  get(): unknown;
  raw(): { all(): unknown[] };
}
interface Connection {
  pragma(sql: string): unknown;
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => Connection;

const dir = mkdtempSync(path.join(os.tmpdir(), "cabin-usage-worker-"));
const file = path.join(dir, "usage.db");
const reader = new Database(file);
reader.pragma("journal_mode = WAL");
reader.exec(
  `CREATE TABLE "usage_records" ("id" TEXT PRIMARY KEY, "tokens" INTEGER NOT NULL, "cost" REAL NOT NULL, "note" TEXT)`,
);
reader.exec(`CREATE TABLE "totals" ("subject" TEXT PRIMARY KEY, "cost" REAL NOT NULL)`);
const writer = new SqliteWriterThread(file);

afterAll(async () => {
  await writer.close();
  reader.close();
  rmSync(dir, { recursive: true, force: true });
});

const columns = ["id", "tokens", "cost", "note"];
type Cell = string | number | null;
const insert = (rows: Cell[][]) => [{ sql: insertSql("usage_records", columns), rows }];

describe("SqliteWriterThread", () => {
  it("commits a batch in the worker; another connection reads it exactly", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => [`r${i}`, i, i / 1e6, i % 2 ? null : `n${i}`]);
    await writer.write(insert(rows));
    const stored = reader
      .prepare(`SELECT "id", "tokens", "cost", "note" FROM "usage_records" ORDER BY "tokens"`)
      .raw()
      .all();
    expect(stored).toEqual(rows);
  });

  it("rejects a failed batch as a whole and stays usable", async () => {
    // r0 exists: the primary key refuses the second row, and the transaction takes back the first.
    await expect(
      writer.write(
        insert([
          ["fresh", 1, 0, null],
          ["r0", 1, 0, null],
        ]),
      ),
    ).rejects.toThrow(/UNIQUE/);
    expect(reader.prepare(`SELECT count(*) AS n FROM "usage_records" WHERE "id" = 'fresh'`).get()).toEqual({ n: 0 });
    await writer.write(insert([["fresh", 1, 0, null]]));
    expect(reader.prepare(`SELECT count(*) AS n FROM "usage_records" WHERE "id" = 'fresh'`).get()).toEqual({ n: 1 });
  });

  it("writes sent back to back all land, in order of commit", async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => writer.write(insert([[`b${i}`, 1000 + i, 0, null]]))));
    expect(reader.prepare(`SELECT count(*) AS n FROM "usage_records" WHERE "id" LIKE 'b%'`).get()).toEqual({ n: 20 });
  });

  it("runs every step of a write in one transaction: a failing step takes back the ones before it", async () => {
    const addToTotal = {
      sql:
        `INSERT INTO "totals" VALUES (?, ?) ON CONFLICT ("subject") DO UPDATE SET "cost" = "totals"."cost" + ` +
        `excluded."cost"`,
      rows: [["org", 0.5]],
    };
    await writer.write([...insert([["t1", 1, 0.5, null]]), addToTotal]);
    await writer.write([...insert([["t2", 1, 0.5, null]]), addToTotal]);
    expect(reader.prepare(`SELECT "cost" FROM "totals" WHERE "subject" = 'org'`).get()).toEqual({ cost: 1 });
    // The total is raised first, then the insert fails (t1 exists): neither stays.
    await expect(writer.write([addToTotal, ...insert([["t1", 1, 0.5, null]])])).rejects.toThrow(/UNIQUE/);
    expect(reader.prepare(`SELECT "cost" FROM "totals" WHERE "subject" = 'org'`).get()).toEqual({ cost: 1 });
  });

  it("starts a new thread after close", async () => {
    await writer.close();
    await writer.write(insert([["after-close", 2000, 0, null]]));
    expect(reader.prepare(`SELECT "tokens" FROM "usage_records" WHERE "id" = 'after-close'`).get()).toEqual({
      tokens: 2000,
    });
  });
});
