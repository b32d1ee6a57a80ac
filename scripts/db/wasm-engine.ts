// Runs Prisma's schema engine as WebAssembly over a driver adapter. The Rust
// schema-engine binary the prisma CLI wants cannot be downloaded here, and
// prisma.config.ts (7.10) cannot route migrate commands through the WASM
// engine, so we drive it directly (see docs/development.md "Database migrations").
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";

type Glue = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

let gluePromise: Promise<Glue> | undefined;

/** Instantiates the WASM module once per process (wasm-bindgen "bundler" glue). */
function loadGlue(): Promise<Glue> {
  gluePromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const jsPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue: Glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = fs.readFileSync(path.join(path.dirname(jsPath), "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, {
      "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
    return glue;
  })();
  return gluePromise;
}

/**
 * Opens an engine on `factory`, runs `fn`, then frees the engine and disposes
 * every connection it opened: the engine never does, which leaves SQLite
 * locked and pg pools open.
 */
export async function withEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  fn: (engine: SchemaEngine) => Promise<T>,
  onClose?: () => Promise<void>,
): Promise<T> {
  const opened: SqlDriverAdapter[] = [];
  const track = (connect: () => Promise<SqlDriverAdapter>) => async (): Promise<SqlDriverAdapter> => {
    const adapter = await connect();
    opened.push(adapter);
    return adapter;
  };
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: track(() => factory.connect()),
    connectToShadowDb: track(() => factory.connectToShadowDb()),
  };
  const glue = await loadGlue();
  const logs: string[] = [];
  const engine = await glue.SchemaEngine.new(
    { datamodels: undefined },
    (msg: string) => logs.push(msg),
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  try {
    return await fn(engine);
  } catch (err) {
    throw new Error(engineErrorMessage(err));
  } finally {
    engine.free();
    for (const adapter of opened) await adapter.dispose().catch(() => undefined);
    await onClose?.();
  }
}

/** Engine errors arrive as Errors or as plain objects with a message. */
function engineErrorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err && typeof err === "object" && "message" in err) return String(err.message);
  return typeof err === "string" ? err : JSON.stringify(err);
}
