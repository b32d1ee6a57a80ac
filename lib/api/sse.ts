// Server-Sent Events bodies for route handlers: named events with JSON data,
// comments, and a `: heartbeat` comment every SSE_HEARTBEAT_MS so proxies and
// clients can tell a quiet stream from a dead one. Cleanup runs once, whether
// the server closes the stream or the client goes away.

export const SSE_HEARTBEAT_MS = 15_000;

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: a compressing proxy would buffer the stream.
  "cache-control": "no-store, no-transform",
  "x-accel-buffering": "no",
} as const;

export interface SseChannel {
  /** One event; `name` null is an unnamed ("message") event; `id` sets the client's Last-Event-ID. */
  send(name: string | null, data: unknown, id?: number | string): void;
  comment(text: string): void;
  /**
   * True while the client has not read what is queued (`highWaterMark` events): a live feed drops rather than queues.
   */
  backlogged(): boolean;
  /** Ends the stream from the server side (runs the cleanup). */
  close(): void;
}

/**
 * A ReadableStream of SSE. `open` runs once the stream starts and returns its cleanup
 * (unsubscribe, timers); the cleanup runs on close, client cancel or `signal` abort.
 */
export function sseStream(
  open: (channel: SseChannel) => (() => void) | void,
  signal?: AbortSignal,
  options: { highWaterMark?: number } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let finish: () => void = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let closed = false;
        let cleanup: (() => void) | void;
        const write = (text: string) => {
          if (!closed) controller.enqueue(encoder.encode(text));
        };
        const heartbeat = setInterval(() => write(": heartbeat\n\n"), SSE_HEARTBEAT_MS);
        finish = () => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          signal?.removeEventListener("abort", finish);
          cleanup?.();
        };
        const channel: SseChannel = {
          send: (name, data, id) =>
            write(
              `${id !== undefined ? `id: ${id}\n` : ""}${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(data)}\n\n`,
            ),
          comment: (text) => write(`: ${text}\n\n`),
          backlogged: () => (controller.desiredSize ?? 1) <= 0,
          close: () => {
            if (closed) return;
            finish();
            controller.close();
          },
        };
        signal?.addEventListener("abort", finish, { once: true });
        try {
          cleanup = open(channel);
        } catch (err) {
          finish(); // no heartbeat left behind: the stream never started
          throw err;
        }
        if (closed) cleanup?.(); // open() closed the stream itself
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: options.highWaterMark ?? 1 },
  );
}
