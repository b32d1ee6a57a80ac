// Which backend serves each model id. One env var, MODELS, holds a JSON map of
// id -> settings; unset, the two default ids run locally on the generated
// placeholder model. Pure: lib/env.ts hands over the raw values.
import { z } from "zod";
import { capabilitiesConfigSchema, DEFAULT_CAPABILITIES, type Capabilities } from "@/lib/models/capabilities";
import type { Prices } from "@/lib/models/types";

export interface ModelDefaults {
  prefix: string;
  threads: number;
  contextSize: number;
  parallel: number;
  queueSize: number;
  upstreamTimeoutMs: number;
}

export interface LocalModelConfig {
  id: string;
  backend: "local";
  /** GGUF file; undefined = the generated placeholder model. */
  path?: string;
  /** GGUF file for /v1/embeddings; undefined = the chat model itself. */
  embeddingPath?: string;
  contextSize: number;
  threads: number;
  parallel: number;
  queueSize: number;
  prices: Prices;
  capabilities: Capabilities;
  ownedBy?: string;
}

export interface UpstreamModelConfig {
  id: string;
  backend: "openai-compatible";
  /** Base URL of the upstream's OpenAI API, ending in /v1 (or its equivalent). */
  url: string;
  apiKey?: string;
  upstreamModel: string;
  timeoutMs: number;
  prices: Prices;
  capabilities: Capabilities;
  ownedBy?: string;
}

export type ModelConfig = LocalModelConfig | UpstreamModelConfig;

const ID = /^[A-Za-z0-9._:/-]{1,128}$/;
const count = z.number().int().min(1);
const pricesSchema = z.strictObject({ input: z.number().min(0), output: z.number().min(0) });

const localSchema = z.strictObject({
  backend: z.literal("local"),
  path: z.string().min(1).optional(),
  embeddingPath: z.string().min(1).optional(),
  contextSize: z.number().int().min(128).optional(),
  threads: count.max(256).optional(),
  parallel: count.max(64).optional(),
  queueSize: z.number().int().min(0).optional(),
  prices: pricesSchema.optional(),
  capabilities: capabilitiesConfigSchema.optional(),
  ownedBy: z.string().min(1).optional(),
});

const upstreamSchema = z.strictObject({
  backend: z.literal("openai-compatible"),
  url: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().min(1).optional(),
  upstreamModel: z.string().min(1).optional(),
  timeoutMs: z.number().int().min(100).optional(),
  prices: pricesSchema.optional(),
  capabilities: capabilitiesConfigSchema.optional(),
  ownedBy: z.string().min(1).optional(),
});

const modelsSchema = z
  .record(z.string(), z.discriminatedUnion("backend", [localSchema, upstreamSchema]))
  .superRefine((models, ctx) => {
    if (Object.keys(models).length === 0) ctx.addIssue({ code: "custom", message: "configure at least one model" });
    for (const id of Object.keys(models)) {
      if (!ID.test(id)) ctx.addIssue({ code: "custom", path: [id], message: "model ids use letters, digits and . _ : / - (at most 128)" });
    }
  });

/** interface.md §8 prices, by the id without its prefix. */
const LIST_PRICES: Record<string, Prices> = {
  "sm-1": { input: 0.2, output: 0.3 },
  "cua-fast": { input: 0.3, output: 1.0 },
};

export function defaultModelIds(prefix: string): string[] {
  return Object.keys(LIST_PRICES).map((name) => `${prefix}.${name}`);
}

function listPrice(id: string, prefix: string): Prices {
  const name = id.startsWith(`${prefix}.`) ? id.slice(prefix.length + 1) : undefined;
  return (name && LIST_PRICES[name]) || { input: 0, output: 0 };
}

/** Parses MODELS (or builds the default set). Throws one readable error naming the bad fields. */
export function parseModelsConfig(raw: string | undefined, defaults: ModelDefaults): ModelConfig[] {
  const localDefaults = {
    contextSize: defaults.contextSize,
    threads: defaults.threads,
    parallel: defaults.parallel,
    queueSize: defaults.queueSize,
  };
  if (raw === undefined || raw.trim() === "") {
    return defaultModelIds(defaults.prefix).map((id) => ({
      id,
      backend: "local",
      ...localDefaults,
      prices: listPrice(id, defaults.prefix),
      capabilities: DEFAULT_CAPABILITIES.local,
    }));
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new Error(`MODELS is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = modelsSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  MODELS.${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new Error(`Invalid MODELS configuration:\n${lines.join("\n")}`);
  }
  return Object.entries(parsed.data).map(([id, entry]): ModelConfig => {
    const prices = entry.prices ?? listPrice(id, defaults.prefix);
    const capabilities = { ...DEFAULT_CAPABILITIES[entry.backend], ...entry.capabilities };
    if (entry.backend === "local") {
      return {
        id,
        backend: "local",
        path: entry.path,
        embeddingPath: entry.embeddingPath,
        contextSize: entry.contextSize ?? localDefaults.contextSize,
        threads: entry.threads ?? localDefaults.threads,
        parallel: entry.parallel ?? localDefaults.parallel,
        queueSize: entry.queueSize ?? localDefaults.queueSize,
        prices,
        capabilities,
        ownedBy: entry.ownedBy,
      };
    }
    return {
      id,
      backend: "openai-compatible",
      url: entry.url.replace(/\/+$/, ""),
      apiKey: entry.apiKey,
      upstreamModel: entry.upstreamModel ?? id,
      timeoutMs: entry.timeoutMs ?? defaults.upstreamTimeoutMs,
      prices,
      capabilities,
      ownedBy: entry.ownedBy,
    };
  });
}

/** Local models with the same file and settings share one loaded model, context and queue. */
export function localModelKey(c: Pick<LocalModelConfig, "path" | "contextSize" | "threads" | "parallel">, resolvedPath: string) {
  return `${resolvedPath}|ctx=${c.contextSize}|threads=${c.threads}|parallel=${c.parallel}`;
}
