// Fresh databases for test servers, made from a migrated template: the migrations run once
// per set of migration files (a tsx child and the WebAssembly engine: 3–15 s on this
// machine), then each server's database is a copy — a file copy on SQLite, `CREATE
// DATABASE … TEMPLATE` on PostgreSQL (CABIN_TEST_DATABASE_URL). The template is named by a
// hash of the migration files, so a new migration makes a new template.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");

function migrationsHash(dir: string): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    const abs = path.join(dir, rel);
    if (statSync(abs).isDirectory()) for (const name of readdirSync(abs).sort()) visit(path.join(rel, name));
    else hash.update(rel).update("\0").update(readFileSync(abs)).update("\0");
  };
  visit("");
  return hash.digest("hex").slice(0, 16);
}

/** `scripts/db/cli.ts deploy` against one database, as `npm start` migrates. */
function deploy(databaseUrl: string, dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: "production",
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
    };
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/db/cli.ts", "deploy"], { cwd: root, env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`migrations failed: ${output}`))));
  });
}

/** The migrated SQLite file every test database is copied from; made at most once per migration set. */
async function sqliteTemplate(): Promise<string> {
  const file = path.join(os.tmpdir(), `cabin-test-template-${migrationsHash(path.join(root, "prisma/migrations"))}.db`);
  if (existsSync(file)) return file;
  const dir = mkdtempSync(path.join(os.tmpdir(), "cabin-test-template-"));
  await deploy(`file:${path.join(dir, "cabin.db")}`, dir);
  renameSync(path.join(dir, "cabin.db"), file); // whole or not at all, should two runs race
  rmSync(dir, { recursive: true, force: true });
  return file;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const databaseUrlNamed = (base: string, name: string) =>
  Object.assign(new URL(base), { pathname: `/${name}` }).toString();

/** The migrated PostgreSQL template database; built under a temporary name and renamed when complete. */
async function postgresTemplate(base: string): Promise<string> {
  const name = `cabin_template_${migrationsHash(path.join(root, "prisma/postgres/migrations"))}`;
  const exists = await withClient(
    base,
    async (c) => (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount,
  );
  if (exists) return name;
  const building = `${name}_${randomBytes(4).toString("hex")}`;
  await withClient(base, (c) => c.query(`CREATE DATABASE ${building}`));
  await deploy(databaseUrlNamed(base, building), mkdtempSync(path.join(os.tmpdir(), "cabin-test-template-")));
  await withClient(base, (c) => c.query(`ALTER DATABASE ${building} RENAME TO ${name}`)).catch(async (err) => {
    // Another run completed the same template first: use it, drop ours.
    await withClient(base, (c) => c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`));
    if (!String(err).includes("already exists")) throw err;
  });
  return name;
}

/**
 * A new, migrated database for one test server: SQLite in `dataDir`, or PostgreSQL when CABIN_TEST_DATABASE_URL is set.
 */
export async function freshDatabase(dataDir: string): Promise<string> {
  const base = process.env.CABIN_TEST_DATABASE_URL;
  if (!base) {
    // A data directory reused from an earlier server keeps its (migrated) database.
    const file = path.join(dataDir, "cabin.db");
    if (!existsSync(file)) copyFileSync(await sqliteTemplate(), file);
    return `file:${file}`;
  }
  const template = await postgresTemplate(base);
  const name = `cabin_test_${randomBytes(6).toString("hex")}`;
  await withClient(base, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return databaseUrlNamed(base, name);
}

export async function dropDatabase(databaseUrl: string) {
  const base = process.env.CABIN_TEST_DATABASE_URL;
  if (!base || !databaseUrl.startsWith("postgres")) return;
  await withClient(base, (c) =>
    c.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`),
  );
}
