// Server-Sent Events bodies for route handlers: named events with JSON data,
// comments, and a `: heartbeat` comment every SSE_HEARTBEAT_MS so proxies and
// clients can tell a quiet stream from a dead one. Cleanup runs once, whether
// the server closes the stream or the client goes away.

export const SSE_HEARTBEAT_MS = 15_000;

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-store",
  "x-accel-buffering": "no",
} as const;

export interface SseChannel {
  /** One event; `name` null is an unnamed ("message") event. */
  send(name: string | null, data: unknown): void;
  comment(text: string): void;
  /** Ends the stream from the server side (runs the cleanup). */
  close(): void;
}

/**
 * A ReadableStream of SSE. `open` runs once the stream starts and returns its cleanup
 * (unsubscribe, timers); the cleanup runs on close, client cancel or `signal` abort.
 */
export function sseStream(open: (channel: SseChannel) => (() => void) | void, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let finish: () => void = () => {};
  return new ReadableStream<Uint8Array>({
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
        send: (name, data) => write(`${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(data)}\n\n`),
        comment: (text) => write(`: ${text}\n\n`),
        close: () => {
          if (closed) return;
          finish();
          controller.close();
        },
      };
      signal?.addEventListener("abort", finish, { once: true });
      cleanup = open(channel);
      if (closed) cleanup?.(); // open() closed the stream itself
    },
    cancel() {
      finish();
    },
  });
}
