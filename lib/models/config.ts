// Which backend serves each model id. One env var, MODELS, holds a JSON map of
// id -> settings; unset, the two default ids run locally on the generated
// placeholder model. Pure: lib/env.ts hands over the raw values.
import { z } from "zod";
import { capabilitiesConfigSchema, resolveCapabilities, type Capabilities } from "@/lib/models/generation/capabilities";
// The shapes it parses into live in lib/models/types.ts; this file is the parser.
export type {
  BackendConfig,
  LocalBackendConfig,
  ModelConfig,
  ModelDefaults,
  ProviderBackendConfig,
  UpstreamBackendConfig,
} from "@/lib/models/types";
import type {
  BackendConfig,
  LocalBackendConfig,
  ModelConfig,
  ModelDefaults,
  Prices,
  ProviderBackendConfig,
  UpstreamBackendConfig,
} from "@/lib/models/types";

/** Where each provider answers unless `url` says otherwise. */
export const PROVIDER_URLS: Record<ProviderBackendConfig["backend"], string> = {
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
};

const ID = /^[A-Za-z0-9._:/-]{1,128}$/;
const BACKEND_NAME = /^[A-Za-z0-9._:/#-]{1,128}$/;
const count = z.number().int().min(1);
const pricesSchema = z.strictObject({ input: z.number().min(0), output: z.number().min(0) });
const name = z
  .string()
  .regex(BACKEND_NAME, "backend names use letters, digits and . _ : / # - (at most 128)")
  .optional();

const localFields = {
  backend: z.literal("local"),
  name,
  path: z.string().min(1).optional(),
  embeddingPath: z.string().min(1).optional(),
  contextSize: z.number().int().min(128).optional(),
  threads: count.max(256).optional(),
  parallel: count.max(64).optional(),
  queueSize: z.number().int().min(0).optional(),
};

const upstreamFields = {
  backend: z.literal("openai-compatible"),
  name,
  url: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().min(1).optional(),
  upstreamModel: z.string().min(1).optional(),
  timeoutMs: z.number().int().min(100).optional(),
  responses: z.enum(["native", "translate"], { error: "responses must be native or translate" }).optional(),
  computerTool: z
    .enum(["computer_use", "computer_use_preview"], {
      error: "computerTool must be computer_use or computer_use_preview",
    })
    .optional(),
};

const providerFields = <B extends "anthropic" | "google">(backend: B) => ({
  backend: z.literal(backend),
  name,
  url: z.url({ protocol: /^https?$/ }).optional(),
  apiKey: z.string().min(1).optional(),
  upstreamModel: z.string().min(1).optional(),
  timeoutMs: z.number().int().min(100).optional(),
});

const modelFields = {
  prices: pricesSchema.optional(),
  capabilities: capabilitiesConfigSchema.optional(),
  ownedBy: z.string().min(1).optional(),
  maxImageEdge: z
    .number({ error: "maxImageEdge must be a number of pixels" })
    .int("maxImageEdge must be an integer")
    .min(64, "maxImageEdge must be at least 64")
    .max(8192, "maxImageEdge must be at most 8192")
    .optional(),
};

/** The original form: the backend's settings and the model's in one object. */
const singleSchema = z.discriminatedUnion("backend", [
  z.strictObject({ ...localFields, ...modelFields }),
  z.strictObject({ ...upstreamFields, ...modelFields }),
  z.strictObject({ ...providerFields("anthropic"), ...modelFields }),
  z.strictObject({ ...providerFields("google"), ...modelFields }),
]);
const backendSchema = z.discriminatedUnion("backend", [
  z.strictObject(localFields),
  z.strictObject(upstreamFields),
  z.strictObject(providerFields("anthropic")),
  z.strictObject(providerFields("google")),
]);
type BackendEntry = z.infer<typeof backendSchema>;

/** The fallback form: `backends` in the order they are tried, the model's settings beside them. */
const chainSchema = z
  .strictObject({
    backends: z.array(backendSchema).min(1, "list at least one backend").max(8, "at most 8 backends"),
    ...modelFields,
  })
  .superRefine((entry, ctx) => {
    const names = entry.backends.map((b) => b.name).filter((n) => n !== undefined);
    const repeated = names.find((n, i) => names.indexOf(n) !== i);
    if (repeated)
      ctx.addIssue({ code: "custom", path: ["backends"], message: `backend name '${repeated}' is used twice` });
  });

type Entry = z.infer<typeof chainSchema> | z.infer<typeof singleSchema>;

/** Each entry is checked by the schema of its form, so errors name that form's fields. */
const entrySchema = (entry: unknown) =>
  entry && typeof entry === "object" && "backends" in entry ? chainSchema : singleSchema;

const modelsSchema = z.record(z.string(), z.unknown()).superRefine((models, ctx) => {
  if (Object.keys(models).length === 0) ctx.addIssue({ code: "custom", message: "configure at least one model" });
  for (const [id, entry] of Object.entries(models)) {
    if (!ID.test(id))
      ctx.addIssue({
        code: "custom",
        path: [id],
        message: "model ids use letters, digits and . _ : / - (at most 128)",
      });
    for (const issue of entrySchema(entry).safeParse(entry).error?.issues ?? []) {
      ctx.addIssue({ code: "custom", path: [id, ...issue.path], message: issue.message });
    }
  }
});

/** The list prices of docs/contract.md "Model API", by the id without its prefix. */
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

function backendConfig(id: string, position: number, entry: BackendEntry, defaults: ModelDefaults): BackendConfig {
  const name = entry.name ?? `${id}#${position + 1}`;
  if (entry.backend === "local") {
    return {
      backend: "local",
      id,
      name,
      path: entry.path,
      embeddingPath: entry.embeddingPath,
      contextSize: entry.contextSize ?? defaults.contextSize,
      threads: entry.threads ?? defaults.threads,
      parallel: entry.parallel ?? defaults.parallel,
      queueSize: entry.queueSize ?? defaults.queueSize,
    };
  }
  if (entry.backend === "anthropic" || entry.backend === "google") {
    return {
      backend: entry.backend,
      id,
      name,
      url: (entry.url ?? PROVIDER_URLS[entry.backend]).replace(/\/+$/, ""),
      apiKey: entry.apiKey,
      upstreamModel: entry.upstreamModel ?? id,
      timeoutMs: entry.timeoutMs ?? defaults.upstreamTimeoutMs,
    };
  }
  return {
    backend: "openai-compatible",
    id,
    name,
    url: entry.url.replace(/\/+$/, ""),
    apiKey: entry.apiKey,
    upstreamModel: entry.upstreamModel ?? id,
    timeoutMs: entry.timeoutMs ?? defaults.upstreamTimeoutMs,
    responses: entry.responses ?? "translate",
    computerTool: entry.computerTool ?? "computer_use",
  };
}

/** Parses MODELS (or builds the default set). Throws one readable error naming the bad fields. */
export function parseModelsConfig(raw: string | undefined, defaults: ModelDefaults): ModelConfig[] {
  if (raw === undefined || raw.trim() === "") {
    return defaultModelIds(defaults.prefix).map((id) => ({
      id,
      backends: [backendConfig(id, 0, { backend: "local" }, defaults)],
      prices: listPrice(id, defaults.prefix),
      capabilities: resolveCapabilities("local"),
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
  return Object.entries(parsed.data).map(([id, raw]): ModelConfig => {
    const entry = entrySchema(raw).parse(raw) as Entry;
    const entries: BackendEntry[] = "backends" in entry ? entry.backends : [entry];
    const backends = entries.map((b, i) => backendConfig(id, i, b, defaults));
    return {
      id,
      backends,
      prices: entry.prices ?? listPrice(id, defaults.prefix),
      // A chain's defaults are its first backend's: the one that answers when all is well.
      capabilities: resolveCapabilities(backends[0]!.backend, entry.capabilities),
      ownedBy: entry.ownedBy,
      ...(entry.maxImageEdge ? { maxImageEdge: entry.maxImageEdge } : {}),
    };
  });
}

/** Local models with the same file and settings share one loaded model, context and queue. */
export function localModelKey(
  c: Pick<LocalBackendConfig, "path" | "contextSize" | "threads" | "parallel">,
  resolvedPath: string,
) {
  return `${resolvedPath}|ctx=${c.contextSize}|threads=${c.threads}|parallel=${c.parallel}`;
}

/**
 * One entry in the MODELS form, checked by the same schema (the dashboard's stored models,
 * lib/models/stored/, use it so every backend MODELS knows works there too): its config, or
 * the problems, each with the entry's field path.
 */
export function parseModelEntry(
  id: string,
  entry: unknown,
  defaults: ModelDefaults,
):
  | { config: ModelConfig; problems?: undefined }
  | { config?: undefined; problems: { path: string[]; message: string }[] } {
  const parsed = modelsSchema.safeParse({ [id]: entry });
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((i) => ({ path: i.path.slice(1).map(String), message: i.message })) };
  }
  return { config: parseModelsConfig(JSON.stringify({ [id]: entry }), defaults)[0]! };
}
