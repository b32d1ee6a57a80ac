// The dashboard playground's chat. A member's conversation (AI SDK UI
// messages, as useChat sends them) runs through createChatCompletion, the code
// path of POST /v1/chat/completions (registry, local or upstream backend, queue,
// metering), billed to the member's organization with no API key (usage rows
// with apiKeyId null), admitted as /v1 admits a call (`admitModelCall`: the
// organization's budget and rate limit). The answer is an AI SDK UI message stream.
import { createUIMessageStreamResponse } from "ai";
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { admitModelCall, type ModelPrincipal } from "@/lib/models/gateway/http";
import { createChatCompletion } from "@/lib/models/generation/inference";
import { toUiMessageChunks } from "@/lib/models/playground/playground-stream";
import { getModel, listModels } from "@/lib/models/registry";
import { chatCompletionSchema } from "@/lib/models/gateway/schemas";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

/** Longest system prompt or message text accepted from the playground. */
const MAX_TEXT = 100_000;

const uiMessage = z.looseObject({
  role: z.enum(["system", "user", "assistant"], { error: "messages[].role must be system, user or assistant" }),
  parts: z.array(z.looseObject({ type: z.string({ error: "messages[].parts[].type must be a string" }) }), {
    error: "messages[].parts must be an array",
  }),
});

/** useChat's body ({id, messages, trigger, messageId}) plus the playground's settings. */
export const playgroundChatSchema = z.object({
  model: z.string({ error: "model is required" }).min(1, "model is required"),
  system: z
    .string({ error: "system must be a string" })
    .max(MAX_TEXT, `system must be at most ${MAX_TEXT} characters`)
    .optional(),
  temperature: z
    .number({ error: "temperature must be a number" })
    .min(0, "temperature must be between 0 and 2")
    .max(2, "temperature must be between 0 and 2"),
  max_tokens: z
    .number({ error: "max_tokens must be a number" })
    .int("max_tokens must be an integer")
    .min(1, "max_tokens must be at least 1")
    .max(32_768, "max_tokens must be at most 32768"),
  messages: z
    .array(uiMessage, { error: "messages must be an array" })
    .min(1, "messages must contain at least one message"),
});

export type PlaygroundChatRequest = z.infer<typeof playgroundChatSchema>;

const textOf = (parts: { type: string; text?: unknown }[]) =>
  parts.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");

/** The chat completion request the playground's conversation stands for (also what "View code" shows). */
export function toChatCompletionRequest(body: PlaygroundChatRequest) {
  const messages = body.messages
    .map((m) => ({ role: m.role, content: textOf(m.parts as { type: string; text?: unknown }[]) }))
    // An answer stopped before its first token has no text: it is not part of the conversation.
    .filter((m) => m.role !== "assistant" || m.content !== "");
  const last = messages.at(-1);
  if (!last || last.role !== "user" || !last.content.trim()) {
    throw new AppError("invalid_request", "messages must end with a user message that has text", { param: "messages" });
  }
  if (messages.some((m) => m.content.length > MAX_TEXT)) {
    throw new AppError("invalid_request", `each message must be at most ${MAX_TEXT} characters`, { param: "messages" });
  }
  const system = body.system?.trim() ? [{ role: "system" as const, content: body.system }] : [];
  return parseWith(chatCompletionSchema, {
    model: body.model,
    messages: [...system, ...messages],
    temperature: body.temperature,
    max_tokens: body.max_tokens,
    stream: true,
    stream_options: { include_usage: true },
  });
}

/** One playground chat, its body checked at the edge (`playgroundChatSchema`), for the member's organization. */
export async function streamPlaygroundChat(args: {
  organizationId: string;
  requestId: string;
  signal: RequestSignal;
  chat: PlaygroundChatRequest;
}): Promise<Response> {
  const request = toChatCompletionRequest(args.chat);
  const model = getModel(request.model, args.organizationId);
  const principal: ModelPrincipal = { organizationId: args.organizationId, apiKeyId: null };
  await admitModelCall(principal);
  const reply = await createChatCompletion({ principal, requestId: args.requestId, signal: args.signal }, request);
  if (!(reply.body instanceof ReadableStream)) {
    // Only a non-streamed answer comes back whole, and this request always streams.
    throw new AppError("internal", "The model answered without a stream");
  }
  return createUIMessageStreamResponse({
    stream: toUiMessageChunks(reply.body, { id: model.id, prices: model.prices }),
    headers: { "x-accel-buffering": "no" },
  });
}

/** The models the playground offers: the server's and the organization's own, with what the picker shows about each. */
export function playgroundModels(organizationId?: string) {
  return listModels(organizationId).map((m) => ({
    id: m.id,
    backend: m.metadata.backend,
    placeholder: m.metadata.placeholder === true,
    notice: m.metadata.notice,
    prices: m.metadata.prices,
    capabilities: m.capabilities,
  }));
}

export type PlaygroundModel = ReturnType<typeof playgroundModels>[number];
