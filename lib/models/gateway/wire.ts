// The OpenAI wire format: response objects, stream chunks and SSE framing, as
// the official clients and the AI SDK parse them (docs/contract.md, "Model API
// details clients rely on").
import type { ToolCall, ToolCallDelta } from "@/lib/models/generation/tools";
import { randomHex } from "@/lib/random-id";
import type { FinishReason } from "@/lib/models/types";

export type TextEndpoint = "chat.completions" | "completions";

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export const usageOf = (promptTokens: number, completionTokens: number): Usage => ({
  prompt_tokens: promptTokens,
  completion_tokens: completionTokens,
  total_tokens: promptTokens + completionTokens,
});

export function newCompletionId(endpoint: TextEndpoint): string {
  return `${endpoint === "chat.completions" ? "chatcmpl" : "cmpl"}-${randomHex(12)}`;
}

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

export function completionBody(
  endpoint: TextEndpoint,
  meta: CompletionMeta,
  text: string,
  finishReason: FinishReason,
  usage: Usage,
  toolCalls: ToolCall[] = [],
) {
  if (endpoint === "chat.completions") {
    // A reply that only calls tools has `content: null`, as the reference API answers.
    const message = toolCalls.length
      ? { role: "assistant", content: text || null, refusal: null, tool_calls: toolCalls }
      : { role: "assistant", content: text, refusal: null };
    return {
      ...meta,
      object: "chat.completion",
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage,
    };
  }
  return {
    ...meta,
    object: "text_completion",
    choices: [{ index: 0, text, logprobs: null, finish_reason: finishReason }],
    usage,
  };
}

/**
 * Streams one JSON chunk. `withUsageField` (include_usage was asked) adds
 * `usage: null` to ordinary chunks, as the reference API does.
 */
export class ChunkEncoder {
  private readonly encoder = new TextEncoder();
  private readonly object: string;

  constructor(
    private readonly endpoint: TextEndpoint,
    private readonly meta: CompletionMeta,
    private readonly withUsageField: boolean,
  ) {
    this.object = endpoint === "chat.completions" ? "chat.completion.chunk" : "text_completion";
  }

  private frame(value: unknown): Uint8Array {
    return this.encoder.encode(`data: ${JSON.stringify(value)}\n\n`);
  }

  private chunk(choice: Record<string, unknown>) {
    return this.frame({
      ...this.meta,
      object: this.object,
      choices: [{ index: 0, ...choice, logprobs: null }],
      ...(this.withUsageField ? { usage: null } : {}),
    });
  }

  /** The opening chunk: chat announces the role; legacy completions have nothing to open with. */
  opening(): Uint8Array | null {
    return this.endpoint === "chat.completions"
      ? this.chunk({ delta: { role: "assistant", content: "" }, finish_reason: null })
      : null;
  }

  delta(text: string): Uint8Array {
    return this.endpoint === "chat.completions"
      ? this.chunk({ delta: { content: text }, finish_reason: null })
      : this.chunk({ text, finish_reason: null });
  }

  /**
   * Pieces of tool calls (chat only): `{index, id, type, function: {name, arguments: ""}}` opens a call, argument
   * fragments follow.
   */
  toolCalls(toolCalls: ToolCallDelta[]): Uint8Array {
    return this.chunk({ delta: { tool_calls: toolCalls }, finish_reason: null });
  }

  finish(reason: FinishReason): Uint8Array {
    return this.endpoint === "chat.completions"
      ? this.chunk({ delta: {}, finish_reason: reason })
      : this.chunk({ text: "", finish_reason: reason });
  }

  usage(usage: Usage): Uint8Array {
    return this.frame({ ...this.meta, object: this.object, choices: [], usage });
  }

  /** An error after the 200 was sent: the clients raise it from the stream. */
  error(error: { message: string; type: string; code: string }): Uint8Array {
    return this.frame({ error: { ...error, param: null } });
  }

  done(): Uint8Array {
    return this.encoder.encode("data: [DONE]\n\n");
  }
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  // Reverse proxies (nginx) must not buffer the stream.
  "x-accel-buffering": "no",
};

/** Vectors are float32 in both encodings, so a base64 vector decodes to exactly the float one. */
export function embeddingsBody(model: string, vectors: number[][], format: "float" | "base64", promptTokens: number) {
  return {
    object: "list",
    data: vectors.map((vector, index) => ({
      object: "embedding",
      index,
      embedding:
        format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector.map(Math.fround),
    })),
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}
