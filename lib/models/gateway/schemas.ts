// Request bodies of /v1 (zod 4). A chat request is strict: a parameter we do
// not know is a 400 naming it, never silently dropped. Messages, tools and
// content parts are loose objects, so fields we do not read still reach an
// upstream as sent. What a backend cannot do (n > 1, images for a model
// without vision) is refused with a 400 naming it.
import { z } from "zod";
import {
  functionToolSchema,
  responseFormatSchema,
  toolCallSchema,
  toolChoiceSchema,
} from "@/lib/models/generation/tools";
import type { ChatMessage, SamplingParams } from "@/lib/models/types";

const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({
    url: z
      .string({ error: "image_url.url is required" })
      .regex(/^(data:|https?:\/\/)/i, "image_url.url must be a data: or http(s) URL"),
    detail: z.enum(["auto", "low", "high"], { error: "detail must be auto, low or high" }).nullish(),
  }),
});

const textContent = z.union([z.string(), z.array(textPart)], {
  error: "content must be a string or an array of text parts ({type: 'text', text})",
});
const userContent = z.union(
  [
    z.string(),
    z.array(
      z.discriminatedUnion("type", [textPart, imagePart], {
        error: "content parts are {type: 'text', text} or {type: 'image_url', image_url: {url}}",
      }),
    ),
  ],
  {
    error: "content must be a string or an array of text and image_url parts",
  },
);

const message = z.discriminatedUnion(
  "role",
  [
    // "developer" is what newer OpenAI clients send in place of "system".
    z.looseObject({ role: z.enum(["system", "developer"]), content: textContent }),
    z.looseObject({ role: z.literal("user"), content: userContent }),
    z.looseObject({
      role: z.literal("assistant"),
      content: textContent.nullish(),
      tool_calls: z.array(toolCallSchema).nullish(),
    }),
    z.looseObject({
      role: z.literal("tool"),
      tool_call_id: z.string({ error: "tool_call_id is required" }).min(1, "tool_call_id is required"),
      content: textContent,
    }),
  ],
  { error: "role must be system, developer, user, assistant or tool" },
);

const stop = z
  .union([z.string(), z.array(z.string()).max(4, "at most 4 stop sequences")], {
    error: "stop must be a string or an array of strings",
  })
  .nullish();

const sampling = {
  model: z.string({ error: "model is required" }).min(1, "model is required"),
  temperature: z
    .number({ error: "temperature must be a number" })
    .min(0, "temperature must be between 0 and 2")
    .max(2, "temperature must be between 0 and 2")
    .nullish(),
  top_p: z
    .number({ error: "top_p must be a number" })
    .gt(0, "top_p must be in (0, 1]")
    .max(1, "top_p must be in (0, 1]")
    .nullish(),
  max_tokens: z.number().int("max_tokens must be an integer").min(1, "max_tokens must be at least 1").nullish(),
  max_completion_tokens: z
    .number()
    .int("max_completion_tokens must be an integer")
    .min(1, "max_completion_tokens must be at least 1")
    .nullish(),
  stream: z.boolean({ error: "stream must be a boolean" }).nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  stop,
  seed: z.number().int("seed must be an integer").nullish(),
  n: z.literal(1, { error: "only n=1 is supported" }).nullish(),
};

const penalty = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .min(-2, `${name} must be between -2 and 2`)
    .max(2, `${name} must be between -2 and 2`)
    .nullish();

const logitBias = z
  .record(
    z.string().regex(/^\d+$/, "logit_bias keys are token ids"),
    z.number().min(-100, "biases are between -100 and 100").max(100, "biases are between -100 and 100"),
    { error: "logit_bias must map token ids to numbers" },
  )
  .nullish();
const user = z.string({ error: "user must be a string" }).nullish();

export const chatCompletionSchema = z.strictObject({
  ...sampling,
  messages: z
    .array(message, { error: "messages must be an array" })
    .min(1, "messages must contain at least one message"),
  tools: z
    .array(functionToolSchema, { error: "tools must be an array of function tools" })
    .max(128, "at most 128 tools")
    .nullish(),
  tool_choice: toolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean({ error: "parallel_tool_calls must be a boolean" }).nullish(),
  response_format: responseFormatSchema.nullish(),
  presence_penalty: penalty("presence_penalty"),
  frequency_penalty: penalty("frequency_penalty"),
  logit_bias: logitBias,
  user,
  // Sent by current OpenAI clients and agent frameworks: forwarded to upstreams as
  // sent, meaningless for a local model (accepted and ignored there, see the README).
  store: z.boolean({ error: "store must be a boolean" }).nullish(),
  metadata: z.record(z.string(), z.string(), { error: "metadata must map strings to strings" }).nullish(),
  service_tier: z.string({ error: "service_tier must be a string" }).nullish(),
  reasoning_effort: z.string({ error: "reasoning_effort must be a string" }).nullish(),
  logprobs: z.literal(false, { error: "logprobs are not supported by this server" }).nullish(),
});

// Strict like chat: `echo`, `best_of`, `suffix`, `logprobs` and anything else are a 400 naming them.
export const completionSchema = z.strictObject({
  ...sampling,
  prompt: z.union([z.string(), z.tuple([z.string()])], {
    error: "prompt must be a string (or an array of one string)",
  }),
  presence_penalty: penalty("presence_penalty"),
  frequency_penalty: penalty("frequency_penalty"),
  logit_bias: logitBias,
  user,
});

// Strict: `user` is accepted and ignored (see the README); anything else unknown is a 400 naming it.
export const embeddingSchema = z.strictObject({
  user,
  model: sampling.model,
  input: z.union(
    [
      z.string().min(1, "input must not be empty"),
      z
        .array(z.string().min(1, "input must not contain empty strings"))
        .min(1, "input must not be empty")
        .max(2048, "at most 2048 inputs"),
    ],
    { error: "input must be a string or an array of strings" },
  ),
  encoding_format: z.enum(["float", "base64"], { error: "encoding_format must be float or base64" }).nullish(),
  dimensions: z.undefined({ error: "dimensions is not supported: this model has a fixed size" }).optional(),
});

export type ChatCompletionRequest = z.infer<typeof chatCompletionSchema>;
export type CompletionRequest = z.infer<typeof completionSchema>;
export type EmbeddingRequest = z.infer<typeof embeddingSchema>;

const textOf = (content: string | { type: string; text?: string }[] | null | undefined): string =>
  content == null
    ? ""
    : typeof content === "string"
      ? content
      : content.map((p) => (p.type === "text" ? p.text : "")).join("");

/** The conversation as text turns (image parts are left to backends that read the request itself). */
export function toMessages(req: ChatCompletionRequest): ChatMessage[] {
  return req.messages.map((m): ChatMessage => {
    if (m.role === "assistant") {
      return m.tool_calls?.length
        ? { role: "assistant", content: textOf(m.content), toolCalls: m.tool_calls }
        : { role: "assistant", content: textOf(m.content) };
    }
    if (m.role === "tool") return { role: "tool", content: textOf(m.content), toolCallId: m.tool_call_id };
    return { role: m.role === "developer" ? "system" : m.role, content: textOf(m.content) };
  });
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
    ...("presence_penalty" in req && req.presence_penalty != null ? { presencePenalty: req.presence_penalty } : {}),
    ...("frequency_penalty" in req && req.frequency_penalty != null ? { frequencyPenalty: req.frequency_penalty } : {}),
    ...("logit_bias" in req && req.logit_bias ? { logitBias: req.logit_bias } : {}),
  };
}
