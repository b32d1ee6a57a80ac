// GET /computers/{id}/screencast (docs/contract.md "Streams"): Server-Sent Events
// of the shared capture (ScreencastHub). Unnamed events carry a frame
// {image_data, metadata: {timestamp, viewport}}, `event: cursor_position`
// {x, y} the desktop pointer, `: heartbeat` comments keep proxies from closing
// an idle stream, and `event: ended` {reason} closes it when the session ends.
// A slow client loses frames (a few are queued at most), never memory.
import { z } from "zod";
import { parseWith } from "@/lib/api/request";
import { sseStream } from "@/lib/api/sse";
import { reachLiveView, type LiveViewCredentials } from "@/lib/computers/live/access";
import type { ScreencastSettings } from "@/lib/computers/driver";
import { terminatedError } from "@/lib/computers/actions/failures";

// Frames queued for a client before new ones are dropped.
const MAX_QUEUED_EVENTS = 4;

export const settingsQuery = z.strictObject({
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

export async function openScreencastStream(
  input: LiveViewCredentials & { query: URLSearchParams; signal?: AbortSignal },
) {
  const settings = parseLiveViewQuery(input.query);
  const { live, hub } = await reachLiveView(input);
  return sseStream(
    (channel) => {
      let detach: () => void;
      try {
        detach = hub.attach({
          ...settings,
          frame(frame) {
            if (channel.backlogged()) return;
            const metadata = { timestamp: frame.timestamp, viewport: { width: frame.width, height: frame.height } };
            channel.send(null, { image_data: frame.jpeg.toString("base64"), metadata });
          },
          cursor(x, y) {
            channel.send("cursor_position", { x, y });
          },
          ended(reason) {
            channel.send("ended", { reason });
            channel.close();
          },
        });
      } catch {
        throw terminatedError({ id: live.id, terminationReason: "ending" });
      }
      channel.comment("connected");
      return detach;
    },
    input.signal,
    { highWaterMark: MAX_QUEUED_EVENTS },
  );
}
