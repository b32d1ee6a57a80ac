// The frame rate the dashboard's live viewer asks /ws for (docs/live-view-cost.md):
// the server's capture, and Chromium's cost, follow the highest fps any viewer
// asks, so a viewer asks only for what it can draw. It starts at the server's
// default and, once it has timed some frames (decode + draw), asks again lower
// if drawing cannot keep up.

/** What a viewer asks first: the /ws default. */
export const VIEWER_MAX_FPS = 15;
const VIEWER_MIN_FPS = 2;
/** Drawing may take this share of the time between frames; the rest stays for the page itself. */
const DRAW_SHARE = 0.5;
/** Frames timed before the rate is judged. */
export const FRAMES_TO_JUDGE = 20;
/** A measured rate this far below the asked one is worth a reconnect. */
const RECONNECT_BELOW = 0.8;

/** The fps a viewer whose frames take `drawMs` on average to decode and draw can show. */
export function drawableFps(drawMs: number): number {
  if (!(drawMs > 0)) return VIEWER_MAX_FPS;
  const fps = Math.floor((1000 * DRAW_SHARE) / drawMs);
  return Math.max(VIEWER_MIN_FPS, Math.min(VIEWER_MAX_FPS, fps));
}

/** Whether a viewer asking `askedFps` should ask again for `drawable`. */
export function shouldAskLower(askedFps: number, drawable: number): boolean {
  return drawable < askedFps * RECONNECT_BELOW;
}

/** The session's `endpoints.ws` with `fps` set (its token and other parameters kept). */
export function withFps(url: string, fps: number): string {
  const parsed = new URL(url);
  parsed.searchParams.set("fps", String(fps));
  return parsed.toString();
}

/** Average of the decode + draw times a viewer has measured, as a running mean. */
export class DrawTimer {
  private total = 0;
  count = 0;

  add(ms: number) {
    this.total += ms;
    this.count++;
  }

  get averageMs(): number {
    return this.count ? this.total / this.count : 0;
  }
}
