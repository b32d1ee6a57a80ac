// Turns the OpenAI-style SSE that createChatCompletion streams (the bytes /v1
// sends) into the AI SDK's UI message chunks that useChat reads: text deltas as
// they come, an in-band error as an `error` chunk, and the final usage chunk as
// the message's metadata (tokens in/out and cost). Cancelling the result
// cancels the source, so a Stop in the browser stops the generation.
import type { UIMessageChunk } from "ai";
import { type SseParser, sseParser } from "@/lib/api/sse-reader";
import { costUsd } from "@/lib/models/usage/usage";
import type { Prices } from "@/lib/models/types";

/** What each playground answer carries as `message.metadata` (shown under it). */
export interface PlaygroundMessageMetadata {
  model: string;
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
  finish_reason?: string;
}

type OpenAiFinish = "stop" | "length" | "tool_calls" | "content_filter";
const FINISH: Record<OpenAiFinish, "stop" | "length" | "tool-calls" | "content-filter"> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool-calls",
  content_filter: "content-filter",
};

interface ChunkFrame {
  choices?: { delta?: { content?: string | null }; finish_reason?: OpenAiFinish | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  error?: { message?: string };
}

const TEXT_ID = "text-0";

export function toUiMessageChunks(
  sse: ReadableStream<Uint8Array>,
  model: { id: string; prices: Prices },
): ReadableStream<UIMessageChunk<PlaygroundMessageMetadata>> {
  let parser: SseParser;
  let textOpen = false;
  let failed = false;
  let finishReason: OpenAiFinish | undefined;
  let usage: ChunkFrame["usage"];

  const onFrame = (frame: ChunkFrame, emit: (chunk: UIMessageChunk<PlaygroundMessageMetadata>) => void) => {
    if (frame.error) {
      failed = true;
      emit({ type: "error", errorText: frame.error.message ?? "The model failed while answering" });
      return;
    }
    if (frame.usage) usage = frame.usage;
    const choice = frame.choices?.[0];
    const text = choice?.delta?.content;
    if (text) {
      if (!textOpen) emit({ type: "text-start", id: TEXT_ID });
      textOpen = true;
      emit({ type: "text-delta", id: TEXT_ID, delta: text });
    }
    if (choice?.finish_reason) finishReason = choice.finish_reason;
  };

  const frames = new TransformStream<Uint8Array, UIMessageChunk<PlaygroundMessageMetadata>>({
    start(controller) {
      controller.enqueue({ type: "start", messageMetadata: { model: model.id } });
      parser = sseParser((item) => {
        if (item.type !== "event" || item.data === "[DONE]") return;
        onFrame(JSON.parse(item.data) as ChunkFrame, (chunk) => controller.enqueue(chunk));
      });
    },
    transform(bytes) {
      parser.push(bytes);
    },
    flush(controller) {
      parser.end();
      if (textOpen) controller.enqueue({ type: "text-end", id: TEXT_ID });
      if (failed) return;
      const input = usage?.prompt_tokens ?? 0;
      const output = usage?.completion_tokens ?? 0;
      controller.enqueue({
        type: "finish",
        finishReason: finishReason ? FINISH[finishReason] : "other",
        messageMetadata: {
          model: model.id,
          input_tokens: input,
          output_tokens: output,
          // The same sum the usage row records (recordUsage prices it with costUsd).
          cost_usd: costUsd(model.prices, input, output),
          finish_reason: finishReason,
        },
      });
    },
  });
  return sse.pipeThrough(frames);
}
