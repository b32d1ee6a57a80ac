// Request bodies of /v1 (zod 4). Unknown fields are ignored, as hosted APIs do,
// so newer clients keep working; fields we cannot honour (n > 1, non-text
// content) are refused with a 400 naming them.
import { z } from "zod";
import type { ChatMessage, SamplingParams } from "@/lib/models/types";

const textPart = z.object({ type: z.literal("text"), text: z.string() });

const content = z.union([z.string(), z.array(textPart)], {
  error: "content must be a string or an array of text parts ({type: 'text', text})",
});

const message = z.object({
  // "developer" is what newer OpenAI clients send in place of "system".
  role: z.enum(["system", "user", "assistant", "developer"], { error: "role must be system, user or assistant" }),
  content,
});

const stop = z
  .union([z.string(), z.array(z.string()).max(4, "at most 4 stop sequences")], { error: "stop must be a string or an array of strings" })
  .nullish();

const sampling = {
  model: z.string({ error: "model is required" }).min(1, "model is required"),
  temperature: z.number({ error: "temperature must be a number" }).min(0, "temperature must be between 0 and 2").max(2, "temperature must be between 0 and 2").nullish(),
  top_p: z.number({ error: "top_p must be a number" }).gt(0, "top_p must be in (0, 1]").max(1, "top_p must be in (0, 1]").nullish(),
  max_tokens: z.number().int("max_tokens must be an integer").min(1, "max_tokens must be at least 1").nullish(),
  max_completion_tokens: z.number().int("max_completion_tokens must be an integer").min(1, "max_completion_tokens must be at least 1").nullish(),
  stream: z.boolean({ error: "stream must be a boolean" }).nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  stop,
  seed: z.number().int("seed must be an integer").nullish(),
  n: z.literal(1, { error: "only n=1 is supported" }).nullish(),
};

// Tool calling is not relayed yet: refusing it is better than silently answering without tools.
const noTools = z.array(z.unknown()).max(0, "tools are not supported by this server yet").nullish();

export const chatCompletionSchema = z.object({
  ...sampling,
  messages: z.array(message, { error: "messages must be an array" }).min(1, "messages must contain at least one message"),
  tools: noTools,
  functions: noTools,
});

export const completionSchema = z.object({
  ...sampling,
  prompt: z.union([z.string(), z.tuple([z.string()])], { error: "prompt must be a string (or an array of one string)" }),
});

export const embeddingSchema = z.object({
  model: sampling.model,
  input: z.union(
    [z.string().min(1, "input must not be empty"), z.array(z.string().min(1, "input must not contain empty strings")).min(1, "input must not be empty").max(2048, "at most 2048 inputs")],
    { error: "input must be a string or an array of strings" },
  ),
  encoding_format: z.enum(["float", "base64"], { error: "encoding_format must be float or base64" }).nullish(),
  dimensions: z.undefined({ error: "dimensions is not supported: this model has a fixed size" }).optional(),
});

export type ChatCompletionRequest = z.infer<typeof chatCompletionSchema>;
export type CompletionRequest = z.infer<typeof completionSchema>;
export type EmbeddingRequest = z.infer<typeof embeddingSchema>;

export function toMessages(req: ChatCompletionRequest): ChatMessage[] {
  return req.messages.map((m) => ({
    role: m.role === "developer" ? "system" : m.role,
    content: typeof m.content === "string" ? m.content : m.content.map((p) => p.text).join(""),
  }));
}

export function toSampling(req: ChatCompletionRequest | CompletionRequest): SamplingParams {
  const stopList = req.stop == null ? [] : typeof req.stop === "string" ? [req.stop] : req.stop;
  return {
    temperature: req.temperature ?? 1,
    topP: req.top_p ?? undefined,
    seed: req.seed ?? undefined,
    maxTokens: req.max_tokens ?? req.max_completion_tokens ?? undefined,
    stop: stopList.filter((s) => s !== ""),
    stream: req.stream === true,
  };
}
