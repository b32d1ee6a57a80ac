// `npm run db:generate`: generates the Prisma clients for both schemas
// (lib/generated/sqlite and lib/generated/postgres).
//
// Every prisma CLI command first tries to download the Rust schema engine,
// which `generate` never uses. Pointing PRISMA_SCHEMA_ENGINE_BINARY at a stub
// skips the download. It is set only in the child's environment: globally it
// would break a real `prisma migrate` on a normal machine.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { writePostgresSchema } from "./derive-postgres";
import { GENERATED_DIR, ROOT, SCHEMA_FILE, type Provider, rel } from "./paths";

const require = createRequire(import.meta.url);
const PRISMA_CLI = require.resolve("prisma/build/index.js");
const PRISMA_PKG = require.resolve("prisma/package.json");
// client.ts is written on every generation; its mtime marks the last run.
const MARKER = "client.ts";

function mtime(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

/** Up to date when the output is newer than the schema and the installed prisma. */
export function isUpToDate(provider: Provider): boolean {
  const out = mtime(path.join(GENERATED_DIR[provider], MARKER));
  return out > mtime(SCHEMA_FILE[provider]) && out > mtime(PRISMA_PKG);
}

function makeStub(): { file: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cabin-prisma-stub-"));
  const file = path.join(dir, "schema-engine");
  fs.writeFileSync(file, "#!/bin/sh\n# stub: prisma generate never runs the schema engine\nexit 0\n");
  fs.chmodSync(file, 0o755);
  return { file, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

function generate(provider: Provider, stub: string): void {
  const started = Date.now();
  const result = spawnSync(process.execPath, [PRISMA_CLI, "generate", "--schema", SCHEMA_FILE[provider]], {
    cwd: ROOT,
    encoding: "utf8",
    // Child-only env: the stub, and no telemetry/update checks (no network here).
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: stub,
      CHECKPOINT_DISABLE: "1",
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
    },
  });
  if (result.status !== 0) {
    throw new Error(`prisma generate failed for ${rel(SCHEMA_FILE[provider])}:\n${result.stdout}${result.stderr}`);
  }
  console.log(`generated ${rel(GENERATED_DIR[provider])} in ${Date.now() - started} ms`);
}

export function generateClients(force = false): void {
  // The PostgreSQL schema is derived; refresh it first so its client matches.
  if (writePostgresSchema()) console.log(`derived ${rel(SCHEMA_FILE.postgresql)}`);
  const stale = (["sqlite", "postgresql"] as const).filter((p) => force || !isUpToDate(p));
  if (stale.length === 0) {
    console.log("client up to date");
    return;
  }
  const stub = makeStub();
  try {
    for (const provider of stale) generate(provider, stub.file);
  } finally {
    stub.cleanup();
  }
}

try {
  generateClients(process.argv.includes("--force"));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
