// Model aliases: further ids a configured model answers to, so clients keep the
// model ids written into their code (the public Lightcone examples ask for
// `tzafon.northstar-cua-fast`). MODEL_ALIASES holds a JSON map alias -> model
// id; unset, the Lightcone computer-use id points at the local computer-use
// model when it exists. Pure: lib/env.ts hands over the raw value.
import { z } from "zod";

const ALIAS = /^[A-Za-z0-9._:/-]{1,128}$/;

/** The ids public clients send, and the default model (by its name without the prefix) each one reaches. */
const DEFAULT_ALIASES: Record<string, string> = { "tzafon.northstar-cua-fast": "cua-fast" };

const aliasesSchema = z.record(
  z.string().regex(ALIAS, "aliases use letters, digits and . _ : / - (at most 128)"),
  z.string().min(1, "name a model id"),
);

/** Parses MODEL_ALIASES against the configured ids; throws one readable error naming each bad entry. */
export function parseModelAliases(
  raw: string | undefined,
  modelIds: readonly string[],
  prefix: string,
): Map<string, string> {
  const ids = new Set(modelIds);
  if (raw === undefined || raw.trim() === "") {
    const defaults = Object.entries(DEFAULT_ALIASES).map(([alias, name]) => [alias, `${prefix}.${name}`] as const);
    return new Map(defaults.filter(([alias, target]) => ids.has(target) && !ids.has(alias)));
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new Error(`MODEL_ALIASES is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = aliasesSchema.safeParse(json);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `  MODEL_ALIASES.${i.path.join(".") || "(root)"}: ${i.message}`);
  for (const [alias, target] of Object.entries(parsed.success ? parsed.data : {})) {
    if (ids.has(alias)) problems.push(`  MODEL_ALIASES.${alias}: is already a model id in MODELS`);
    else if (!ids.has(target))
      problems.push(
        `  MODEL_ALIASES.${alias}: '${target}' is not a configured model (aliases name model ids, not other aliases)`,
      );
  }
  if (problems.length) throw new Error(`Invalid MODEL_ALIASES configuration:\n${problems.join("\n")}`);
  return new Map(Object.entries(parsed.data!));
}
