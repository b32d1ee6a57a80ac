// What a model accepts, declared in configuration (MODELS.<id>.capabilities)
// with defaults by backend, shown on GET /v1/models/{id}, and checked before a
// request reaches the backend: a model that cannot see images answers a 400
// naming the image part, rather than answering as if it had seen it.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import type { ChatCompletionRequest, EmbeddingRequest } from "@/lib/models/gateway/schemas";

export interface Capabilities {
  vision: boolean;
  tools: boolean;
  json_schema: boolean;
  embeddings: boolean;
  /**
   * What an image part meets: "seen" (vision), "ignored" (accepted and left out of the prompt:
   * a text-only local model, so a computer-use loop still runs on it) or "refused" (a 400 naming
   * the part: an upstream configured without vision, which would otherwise be sent the image).
   */
  image_inputs: "seen" | "ignored" | "refused";
}

export const capabilitiesConfigSchema = z.strictObject({
  vision: z.boolean().optional(),
  tools: z.boolean().optional(),
  json_schema: z.boolean().optional(),
  embeddings: z.boolean().optional(),
});

/**
 * The local runtime (node-llama-cpp, text only) does tools and schemas through
 * grammars; an upstream is assumed able to do everything unless configured
 * otherwise, since it answers for itself (a refusal comes back as its 400).
 */
/** Which kind of backend serves a model (MODELS.<id>.backend). */
export type BackendKind = "local" | "openai-compatible" | "anthropic" | "google";

/**
 * Claude and Gemini see images and call tools; neither serves embeddings, and structured output
 * is left to configuration (`json_schema: true`) since they answer it through their own mechanisms.
 */
export const DEFAULT_CAPABILITIES: Record<BackendKind, Capabilities> = {
  local: { vision: false, tools: true, json_schema: true, embeddings: true, image_inputs: "ignored" },
  "openai-compatible": { vision: true, tools: true, json_schema: true, embeddings: true, image_inputs: "seen" },
  anthropic: { vision: true, tools: true, json_schema: false, embeddings: false, image_inputs: "seen" },
  google: { vision: true, tools: true, json_schema: false, embeddings: false, image_inputs: "seen" },
};

/** A model's capabilities: its first backend's defaults, the configured ones, and what follows for images. */
export function resolveCapabilities(
  backend: BackendKind,
  configured: z.infer<typeof capabilitiesConfigSchema> = {},
): Capabilities {
  const merged = { ...DEFAULT_CAPABILITIES[backend], ...configured };
  const image_inputs = merged.vision ? "seen" : backend === "local" ? "ignored" : "refused";
  return { ...merged, image_inputs };
}

function refuse(modelId: string, what: string, param: string): AppError {
  return new AppError("invalid_request", `The model '${modelId}' does not support ${what}.`, {
    param,
    detail: "unsupported_capability",
  });
}

/** Throws a 400 naming the first part of the request the model cannot take. */
export function checkChatCapabilities(modelId: string, caps: Capabilities, body: ChatCompletionRequest): void {
  if (caps.image_inputs === "refused") {
    for (const [i, m] of body.messages.entries()) {
      if (m.role !== "user" || typeof m.content === "string") continue;
      const j = m.content.findIndex((p) => p.type === "image_url");
      if (j >= 0) throw refuse(modelId, "image inputs", `messages[${i}].content[${j}]`);
    }
  }
  if (!caps.tools && body.tools?.length) throw refuse(modelId, "tools", "tools");
  if (!caps.json_schema && body.response_format && body.response_format.type !== "text") {
    throw refuse(modelId, `response_format ${body.response_format.type}`, "response_format");
  }
}

export function checkEmbeddingCapabilities(modelId: string, caps: Capabilities, _body: EmbeddingRequest): void {
  if (!caps.embeddings) throw refuse(modelId, "embeddings", "model");
}
