// The one Server-Sent Events reader of the house, on `eventsource-parser` (the
// WHATWG parsing rules: CR, LF and CRLF line ends, a CRLF split across chunks,
// multi-line data, comments, `event:`/`id:` fields). Every consumer — the model
// upstream stream, the playground's UI stream, the native Responses relay, the
// test clients — reads SSE through this module instead of splitting on "\n\n".
import { createParser } from "eventsource-parser";

/** One parsed item: an event (its `event:` name, "message" when unnamed) or a comment line (`: heartbeat`). */
export type SseItem =
  | { type: "event"; event: string; data: string; id?: string }
  | { type: "comment"; comment: string };

export interface SseParser {
  /** Feed the next chunk as it arrives; complete items are handed to the callback at once. */
  push(chunk: Uint8Array | string): void;
  /** The stream ended: a last event without its blank line is still delivered. */
  end(): void;
}

/** A push-style reader, for consumers that are handed chunks (a TransformStream's `transform`). */
export function sseParser(onItem: (item: SseItem) => void): SseParser {
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (message) =>
      onItem({
        type: "event",
        event: message.event ?? "message",
        data: message.data,
        ...(message.id !== undefined ? { id: message.id } : {}),
      }),
    onComment: (comment) => onItem({ type: "comment", comment: comment.trim() }),
  });
  return {
    push(chunk) {
      parser.feed(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      // Completes a pending line and dispatches its event; a no-op after a clean blank line.
      parser.feed(`${decoder.decode()}\n\n`);
    },
  };
}

type Body = AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/** A web stream's chunks (its reader released at the end, or when the consumer stops early). */
async function* chunksOf(body: Body): AsyncGenerator<Uint8Array | string> {
  if (!(body instanceof ReadableStream)) return yield* body;
  const reader = body.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
  } finally {
    reader.releaseLock();
  }
}

/** Every item of a stream, yielded as soon as its blank line arrives (no buffering of later events). */
export async function* readSse(body: Body): AsyncGenerator<SseItem> {
  const ready: SseItem[] = [];
  const parser = sseParser((item) => ready.push(item));
  for await (const chunk of chunksOf(body)) {
    parser.push(chunk);
    yield* ready.splice(0);
  }
  parser.end();
  yield* ready.splice(0);
}

/** Only the events' data (comments, names and ids dropped): the OpenAI-style `data: {chunk}` streams. */
export async function* readSseData(body: Body): AsyncGenerator<string> {
  for await (const item of readSse(body)) if (item.type === "event") yield item.data;
}

/** A whole SSE body already read as text, parsed into its items. */
export function parseSseText(text: string): SseItem[] {
  const items: SseItem[] = [];
  const parser = sseParser((item) => items.push(item));
  parser.push(text);
  parser.end();
  return items;
}
