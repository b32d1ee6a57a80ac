// @needs nothing
// Integration: the checked-in SQLite migrations deploy to a fresh file through
// the WASM schema engine, and `createDb`'s client can then write and read it.
// Uses explicit URLs (createDb), so no process.env changes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db";
import { deployMigrations, status } from "../../scripts/db/engine";
import { migrationNames } from "../../scripts/db/migrations-fs";
import { MIGRATIONS_DIR } from "../../scripts/db/paths";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cabin-db-test-"));
const url = `file:${path.join(dir, "nested", "cabin.db")}`;
const quiet = () => undefined;

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("SQLite migrations", () => {
  it("reports a fresh database as never deployed without creating it", async () => {
    const s = await status(url);
    expect(s.upToDate).toBe(false);
    expect(s.diagnosis.hasMigrationsTable).toBe(false);
    expect(fs.existsSync(path.join(dir, "nested"))).toBe(false);
  });

  it("deploys every migration once, creating the folder", async () => {
    const all = migrationNames(MIGRATIONS_DIR.sqlite);
    expect(all.length).toBeGreaterThan(0);
    expect(await deployMigrations(url, quiet)).toEqual(all);
    expect(await deployMigrations(url, quiet)).toEqual([]);
    expect((await status(url)).upToDate).toBe(true);
  });

  it("lets the app client insert and read an Organization", async () => {
    const { client, provider } = createDb(url);
    expect(provider).toBe("sqlite");
    try {
      const created = await client.organization.create({
        data: { id: "org_test", name: "Test Org", slug: "test-org" },
      });
      expect(created.createdAt).toBeInstanceOf(Date);
      const found = await client.organization.findUnique({ where: { slug: "test-org" } });
      expect(found?.name).toBe("Test Org");
      const [mode] = await client.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
      expect(mode.journal_mode).toBe("wal");
    } finally {
      await client.$disconnect();
    }
  });
});
