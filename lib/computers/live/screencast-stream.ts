// GET /computers/{id}/screencast (extensions.md "Streams"): Server-Sent Events
// of the shared capture (ScreencastHub). Unnamed events carry a frame
// {image_data, metadata: {timestamp, viewport}}, `event: cursor_position`
// {x, y} the desktop pointer, `: heartbeat` comments keep proxies from closing
// an idle stream, and `event: ended` {reason} closes it when the session ends.
// A slow client loses frames (a few are queued at most), never memory.
import { z } from "zod";
import { parseWith } from "@/lib/api/request";
import { reachLiveView, type LiveViewCredentials } from "@/lib/computers/live/access";
import type { ScreencastSettings } from "@/lib/computers/driver";
import { terminatedError } from "@/lib/computers/failures";

const HEARTBEAT_MS = 15_000;
// Frames queued for a client before new ones are dropped.
const MAX_QUEUED_EVENTS = 4;

const settingsQuery = z.strictObject({
  fps: z.coerce.number().int().min(1).max(30).default(15),
  quality: z.coerce.number().int().min(1).max(100).default(60),
  format: z.literal("jpeg", { error: "format: only 'jpeg' frames are served by this server" }).default("jpeg"),
  token: z.string().optional(),
});

/** fps, quality (and format) of a live-view URL's query; a bad value is a 400 naming it. */
export function parseLiveViewQuery(query: URLSearchParams): ScreencastSettings {
  const { fps, quality } = parseWith(settingsQuery, Object.fromEntries(query));
  return { fps, quality };
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: compression would buffer the stream.
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

export async function openScreencastStream(input: LiveViewCredentials & { query: URLSearchParams; signal?: AbortSignal }) {
  const settings = parseLiveViewQuery(input.query);
  const { live, hub } = await reachLiveView(input);
  const encoder = new TextEncoder();
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        const send = (text: string) => {
          if (!open) return;
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            cleanup();
          }
        };
        let detach = () => {};
        const heartbeat = setInterval(() => send(": heartbeat\n\n"), HEARTBEAT_MS);
        cleanup = () => {
          if (!open) return;
          open = false;
          clearInterval(heartbeat);
          detach();
        };
        try {
          detach = hub.attach({
            ...settings,
            frame(frame) {
              if ((controller.desiredSize ?? 1) <= 0) return;
              const metadata = { timestamp: frame.timestamp, viewport: { width: frame.width, height: frame.height } };
              send(`data: ${JSON.stringify({ image_data: frame.jpeg.toString("base64"), metadata })}\n\n`);
            },
            cursor(x, y) {
              send(`event: cursor_position\ndata: ${JSON.stringify({ x, y })}\n\n`);
            },
            ended(reason) {
              send(`event: ended\ndata: ${JSON.stringify({ reason })}\n\n`);
              cleanup();
              controller.close();
            },
          });
        } catch {
          cleanup();
          throw terminatedError({ id: live.id, terminationReason: "ending" });
        }
        send(": connected\n\n");
        input.signal?.addEventListener("abort", () => cleanup(), { once: true });
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: MAX_QUEUED_EVENTS },
  );
}
