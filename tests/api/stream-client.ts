// Readers for the streaming endpoints (docs/contract.md "Streams"): NDJSON lines of
// POST /computers/{id}/exec and Server-Sent Events of GET /computers/{id}/events,
// read as they arrive so a test can act while a stream is open.
import { sseParser } from "@/lib/api/sse-reader";
import type { Target } from "./computers-fixtures";

export interface LineStream<T> {
  status: number;
  headers: Headers;
  /** The next item, or null when the stream ended; rejects after timeoutMs. */
  next(timeoutMs?: number): Promise<T | null>;
  /** Reads until `match` returns true; returns everything read, the match last. */
  until(match: (item: T) => boolean, timeoutMs?: number): Promise<T[]>;
  /** All items to the end of the stream. */
  rest(timeoutMs?: number): Promise<T[]>;
  /** Client disconnect. */
  abort(): void;
}

export interface SseEvent {
  event: string;
  data: any;
  /** The SSE `id:` field, present only when the server sent one. */
  id?: string;
}

async function open(method: string, url: string, t: Target, body?: unknown, extraHeaders: Record<string, string> = {}) {
  const controller = new AbortController();
  const headers: Record<string, string> = { ...extraHeaders };
  if (t.key) headers.authorization = `Bearer ${t.key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(url, {
    method,
    headers,
    signal: controller.signal,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { res, controller };
}

/** Turns decoded chunks into items, handing complete ones to `push`. */
type Splitter<T> = (push: (item: T) => void) => (chunk: string) => void;

/** NDJSON: one JSON value per line (blank lines skipped). */
const jsonLines: Splitter<any> = (push) => {
  let buffer = "";
  return (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (line.trim()) push(JSON.parse(line));
    }
  };
};

/** SSE through the house reader (lib/api/sse-reader); a comment (`: heartbeat`) comes through as event "comment". */
const sseEvents: Splitter<SseEvent> = (push) => {
  const parser = sseParser((item) =>
    push(
      item.type === "comment"
        ? { event: "comment", data: item.comment }
        : {
            event: item.event,
            data: item.data ? JSON.parse(item.data) : null,
            ...(item.id !== undefined ? { id: item.id } : {}),
          },
    ),
  );
  return (chunk) => parser.push(chunk);
};

/** Reads a byte stream as it arrives, split into items by `splitter`. */
function records<T>(res: Response, controller: AbortController, splitter: Splitter<T>): LineStream<T> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let done = false;
  const queue: T[] = [];
  const feed = splitter((item) => queue.push(item));
  const fill = async () => {
    while (!queue.length && !done) {
      const chunk = await reader.read();
      if (chunk.done) done = true;
      else feed(decoder.decode(chunk.value, { stream: true }));
    }
  };
  const next = async (timeoutMs = 20_000): Promise<T | null> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no stream item within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([fill(), timeout]);
    } finally {
      clearTimeout(timer);
    }
    return queue.shift() ?? null;
  };
  return {
    status: res.status,
    headers: res.headers,
    next,
    async until(match, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      const seen: T[] = [];
      for (;;) {
        const item = await next(Math.max(1, deadline - Date.now()));
        if (item === null) throw new Error(`stream ended before the expected item; read: ${JSON.stringify(seen)}`);
        seen.push(item);
        if (match(item)) return seen;
      }
    },
    async rest(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      const seen: T[] = [];
      for (let item = await next(timeoutMs); item !== null; item = await next(Math.max(1, deadline - Date.now())))
        seen.push(item);
      return seen;
    },
    abort: () => controller.abort(),
  };
}

/** `headers`: extra request headers, e.g. a dashboard login's cookie and origin. */
export async function ndjson(
  t: Target,
  path: string,
  body: unknown,
  headers?: Record<string, string>,
): Promise<LineStream<any>> {
  const { res, controller } = await open("POST", `${t.base}${path}`, t, body, headers);
  return records(res, controller, jsonLines);
}

/** An SSE stream; comments (`: heartbeat`) come through as event "comment". */
export async function sse(
  t: Target,
  path: string,
  headers?: Record<string, string>,
): Promise<LineStream<SseEvent> & { text: () => Promise<string> }> {
  const { res, controller } = await open("GET", `${t.base}${path}`, t, undefined, headers);
  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
    const text = await res.text();
    return {
      ...records<SseEvent>(new Response(""), controller, sseEvents),
      status: res.status,
      headers: res.headers,
      text: async () => text,
    };
  }
  const stream = records<SseEvent>(res, controller, sseEvents);
  return { ...stream, text: async () => "" };
}
