// The only module that reads environment variables. Everything is validated
// once, at first use, and exported typed. Add a variable to the settings module
// of its part (lib/env/*-settings.ts) with its default and a `.describe()` text,
// then run `npm run docs:config`.
import path from "node:path";
import { z } from "zod";
import { computerSettings } from "@/lib/env/computer-settings";
import { fileSettings } from "@/lib/env/file-settings";
import { modelSettings } from "@/lib/env/model-settings";
import { serverSettings } from "@/lib/env/server-settings";

/**
 * Every setting, with its default and a `.describe()` text (what it does, its unit):
 * `npm run docs:config` renders docs/configuration.md from this schema (in this order),
 * and a unit test fails when a setting lacks a description or the page is out of date.
 */
export const envSchema = z.object({ ...serverSettings, ...computerSettings, ...fileSettings, ...modelSettings });
export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Validated environment; throws one readable error naming every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export function getEnv(): Env {
  cached ??= loadEnv();
  return cached;
}

/** Absolute data directory. */
export function dataDir(env: Env = getEnv()): string {
  return path.resolve(env.DATA_DIR);
}

export function databaseUrl(env: Env = getEnv()): string {
  return env.DATABASE_URL ?? `file:${path.join(dataDir(env), "cabin.db")}`;
}

/** The few variables a child process of ours needs (locale, time zone, paths), without the server's secrets. */
export function childProcessEnvironment(
  source: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const keep = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "FONTCONFIG_PATH"];
  return Object.fromEntries(keep.flatMap((k) => (source[k] ? [[k, source[k]]] : [])));
}
