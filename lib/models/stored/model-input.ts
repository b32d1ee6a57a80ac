// The dashboard API's body for a stored model, and its translation into the
// MODELS entry form, so the same schema (lib/models/config.ts) decides what is
// valid for both and its errors come back naming the dashboard's field.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseModelEntry, type ModelConfig } from "@/lib/models/config";
import { modelDefaults } from "@/lib/models/stored/sync";

const ID = /^[A-Za-z0-9._:/-]{1,128}$/;
const idText = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .regex(ID, `${what} uses letters, digits and . _ : / - (at most 128)`);

export const PROVIDERS = ["openai-compatible", "anthropic", "google"] as const;

const fields = {
  id: idText("a model id"),
  provider: z.enum(PROVIDERS, { error: `provider must be one of ${PROVIDERS.join(", ")}` }),
  /** Empty = the provider's default (required for openai-compatible: the MODELS schema says so). */
  base_url: z.string().trim().max(2048).optional(),
  /** PATCH: absent keeps the saved key, null removes it. */
  api_key: z.string().trim().min(1, "api_key must not be empty (null removes the key)").max(4096).nullable().optional(),
  upstream_model: z.string().trim().max(256).optional(),
  prices: z
    .strictObject({
      input: z.number({ error: "must be a number" }).min(0, "must be at least 0").max(100_000),
      output: z.number({ error: "must be a number" }).min(0, "must be at least 0").max(100_000),
    })
    .optional(),
  capabilities: z
    .strictObject({
      vision: z.boolean().optional(),
      tools: z.boolean().optional(),
      json_schema: z.boolean().optional(),
      embeddings: z.boolean().optional(),
    })
    .optional(),
  aliases: z.array(idText("an alias")).max(16, "at most 16 aliases").optional(),
};

export const createModelBody = z.strictObject(fields);
export const updateModelBody = z.strictObject(fields).partial();
export type ModelBody = z.infer<typeof createModelBody>;

/** MODELS field -> the dashboard body's name for it. */
const BODY_FIELD: Record<string, string> = {
  backend: "provider",
  url: "base_url",
  apiKey: "api_key",
  upstreamModel: "upstream_model",
};

/** The MODELS entry a body stands for, without its key (kept apart, sealed). */
export function entryOf(body: Omit<ModelBody, "id" | "api_key" | "aliases">): Record<string, unknown> {
  const entry: Record<string, unknown> = { backend: body.provider };
  if (body.base_url) entry.url = body.base_url;
  if (body.upstream_model) entry.upstreamModel = body.upstream_model;
  if (body.prices) entry.prices = body.prices;
  if (body.capabilities && Object.keys(body.capabilities).length) entry.capabilities = body.capabilities;
  return entry;
}

/** Checks an entry with the MODELS schema; a problem is a 400 naming the dashboard's field. */
export function checkEntry(id: string, entry: Record<string, unknown>, apiKey: string | undefined): ModelConfig {
  const parsed = parseModelEntry(id, apiKey ? { ...entry, apiKey } : entry, modelDefaults());
  if (parsed.config) return parsed.config;
  const problem = parsed.problems[0]!;
  const [head, ...rest] = problem.path;
  const param = head === undefined ? "id" : [BODY_FIELD[head] ?? head, ...rest].join(".");
  throw new AppError("invalid_request", `Invalid value for '${param}': ${problem.message}`, {
    param,
    detail: "invalid_request",
  });
}
