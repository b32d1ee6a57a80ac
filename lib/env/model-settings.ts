// Settings of the model API (/v1): models, the local backend, limits, upstreams.
// Part of `envSchema` (lib/env.ts), the only reader of the environment; no domain imports here.
import { z } from "zod";
import { bool } from "@/lib/env/bool";

export const modelSettings = {
  // ---- model API ----
  MODEL_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default("svc")
    .describe("Provider prefix of the default model ids (svc.sm-1, svc.cua-fast)."),
  MODELS: z
    .string()
    .optional()
    .describe(
      "JSON map of model id to backend settings (see docs/models.md). Unset: the two default ids run locally on " +
        "a generated placeholder model.",
    ),
  MODEL_THREADS: z.coerce.number().int().min(1).max(256).default(1).describe("CPU threads per local model."),
  MODEL_CONTEXT_SIZE: z.coerce
    .number()
    .int()
    .min(128)
    .default(8192)
    .describe(
      "Context size in tokens of local models unless MODELS sets one (capped at the model's own). Default 8192: " +
        "the computer tool plus 20 steps of history fit.",
    ),
  MODEL_ALIASES: z
    .string()
    .optional()
    .describe(
      'JSON map of extra model ids to configured ones, e.g. {"tzafon.northstar-cua-fast": "svc.cua-fast"}, so ' +
        "clients keep their model ids. " +
        'Default: tzafon.northstar-cua-fast -> <MODEL_PREFIX>.cua-fast when that model exists. "{}" turns aliases off.',
    ),
  MODEL_PARALLEL: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(1)
    .describe("Requests a local model runs at once (llama.cpp sequences)."),
  MODEL_QUEUE_SIZE: z.coerce
    .number()
    .int()
    .min(0)
    .default(64)
    .describe("Requests that may wait per local model before new ones get 429."),
  MODEL_RATE_LIMIT_RPM: z.coerce
    .number()
    .int()
    .min(0)
    .default(3000)
    .describe("Requests per minute per organization on /v1 inference (0 turns the limit off)."),
  MODEL_RATE_LIMIT_TPM: z.coerce
    .number()
    .int()
    .min(0)
    .default(2_000_000)
    .describe("Tokens per minute per organization on /v1 inference (0 turns the limit off)."),
  MODEL_KEY_RATE_LIMIT_RPM: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("Requests per minute per API key, on top of the organization's (0: only the organization's)."),
  MODEL_KEY_RATE_LIMIT_TPM: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("Tokens per minute per API key, on top of the organization's (0: only the organization's)."),
  MODEL_UPSTREAM_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(60_000)
    .describe("Milliseconds an upstream backend may take to send its response headers, and between stream chunks."),
  MODEL_WARMUP: bool.default(true).describe("Load local models at start-up instead of on the first request."),
  MODEL_COOLDOWN_FAILURES: z.coerce
    .number()
    .int()
    .min(0)
    .default(3)
    .describe(
      "Failures in a row (timeout, connection error, 5xx, 429) after which a model backend is cooled down (0: never).",
    ),
  MODEL_COOLDOWN_SECONDS: z.coerce
    .number()
    .min(0)
    .default(30)
    .describe("Seconds a cooled-down backend is skipped while a later backend of its model remains to try."),
};
