// One screen capture per session, shared by every viewer (SSE screencast, /ws
// live view). The capture runs only while at least one viewer is attached: the
// first viewer starts the handle's ScreencastCapability, the last one to leave
// stops it. Viewers may ask for different rates: the capture runs at the
// highest fps and quality asked, and each viewer gets frames no closer together
// than its own interval. When the session ends, SessionManager.end calls
// `end(reason)` and every viewer is told why.
import type { ScreencastCapability, ScreencastFrame, ScreencastSettings } from "@/lib/computers/driver";
import { getLogger } from "@/lib/logger";
import { singleton, singletonKey } from "@/lib/singleton";

export interface Viewer extends ScreencastSettings {
  frame(frame: ScreencastFrame): void;
  cursor?(x: number, y: number): void;
  /** The session ended (its termination reason); the hub has already detached this viewer. */
  ended(reason: string): void;
}

/**
 * Process-wide counters for /api/health (computersHealth): captures running, viewers attached, frames captured,
 * screencast frames Chromium encoded for browser captures (ScreencastPacer keeps them near the viewers' fps),
 * and desktop input messages applied as XTest events or through xdotool (DesktopLiveInput).
 */
export interface LiveViewStats {
  capturing: number;
  viewers: number;
  frames: number;
  browser_screencast_frames: number;
  desktop_input_xtest: number;
  desktop_input_xdotool: number;
}

const STATS = singletonKey<LiveViewStats>("liveViewStats");
export function liveViewStats(): LiveViewStats {
  return singleton(STATS, () => ({
    capturing: 0,
    viewers: 0,
    frames: 0,
    browser_screencast_frames: 0,
    desktop_input_xtest: 0,
    desktop_input_xdotool: 0,
  }));
}

// A frame may arrive a little early against a viewer's interval (capture jitter);
// without this slack a 15 fps viewer of a 15 fps capture would get every other frame.
const INTERVAL_SLACK = 0.75;

interface Attached {
  viewer: Viewer;
  lastSentAt: number;
  /** A frame that came too soon for this viewer, sent when its interval is up (deliverLater). */
  held: ScreencastFrame | null;
  timer: NodeJS.Timeout | null;
}

export class ScreencastHub {
  private readonly attached = new Set<Attached>();
  private running: { settings: ScreencastSettings; stop: () => Promise<void> } | null = null;
  /** Capture starts and stops, one at a time, always towards the latest wanted settings. */
  private changing: Promise<void> = Promise.resolve();
  private endedReason: string | null = null;
  private lastCursor: { x: number; y: number } | null = null;
  /** The newest frame, so a viewer joining a running capture of a still screen sees it at once. */
  private lastFrame: ScreencastFrame | null = null;

  constructor(private readonly capability: ScreencastCapability) {}

  get viewerCount(): number {
    return this.attached.size;
  }

  /** Attaches a viewer; returns its detach function (idempotent). Throws when the session has ended. */
  attach(viewer: Viewer): () => void {
    if (this.endedReason !== null) throw new Error(`the session has ended (${this.endedReason})`);
    const entry: Attached = { viewer, lastSentAt: 0, held: null, timer: null };
    this.attached.add(entry);
    liveViewStats().viewers++;
    if (this.lastCursor && viewer.cursor) viewer.cursor(this.lastCursor.x, this.lastCursor.y);
    if (this.running && this.lastFrame) {
      entry.lastSentAt = Date.now();
      viewer.frame(this.lastFrame);
    }
    this.reconcile();
    return () => {
      if (!this.attached.delete(entry)) return;
      if (entry.timer) clearTimeout(entry.timer);
      liveViewStats().viewers--;
      this.reconcile();
    };
  }

  /** The session ended: every viewer is told the reason and the capture stops. */
  end(reason: string): Promise<void> {
    if (this.endedReason === null) {
      this.endedReason = reason;
      const viewers = [...this.attached];
      this.attached.clear();
      for (const entry of viewers) if (entry.timer) clearTimeout(entry.timer);
      liveViewStats().viewers -= viewers.length;
      for (const { viewer } of viewers) {
        try {
          viewer.ended(reason);
        } catch (err) {
          getLogger().warn({ err }, "a live viewer failed to end");
        }
      }
      this.reconcile();
    }
    return this.changing;
  }

  private wanted(): ScreencastSettings | null {
    if (this.attached.size === 0) return null;
    let fps = 1;
    let quality = 1;
    for (const { viewer } of this.attached) {
      fps = Math.max(fps, viewer.fps);
      quality = Math.max(quality, viewer.quality);
    }
    return { fps, quality };
  }

  private reconcile() {
    this.changing = this.changing
      .then(() => this.apply())
      .catch((err) => {
        getLogger().warn({ err }, "screencast capture could not start or stop");
      });
  }

  private async apply() {
    const wanted = this.wanted();
    const current = this.running?.settings ?? null;
    if (wanted && current && wanted.fps === current.fps && wanted.quality === current.quality) return;
    if (this.running) {
      const { stop } = this.running;
      this.running = null;
      this.lastFrame = null;
      liveViewStats().capturing--;
      await stop().catch((err) => getLogger().warn({ err }, "stopping a screencast failed"));
    }
    if (!wanted) return;
    const stop = await this.capability.start(wanted, {
      frame: (frame) => this.fanOut(frame),
      cursor: (x, y) => this.cursor(x, y),
    });
    this.running = { settings: wanted, stop };
    liveViewStats().capturing++;
    // Viewers may have left (or the session ended) while the capture was starting.
    if (!this.wanted()) this.reconcile();
  }

  private fanOut(frame: ScreencastFrame) {
    liveViewStats().frames++;
    this.lastFrame = frame;
    const now = Date.now();
    for (const entry of this.attached) {
      const wait = (1000 / entry.viewer.fps) * INTERVAL_SLACK - (now - entry.lastSentAt);
      if (wait <= 0) this.send(entry, frame, now);
      else this.deliverLater(entry, frame, wait);
    }
  }

  private send(entry: Attached, frame: ScreencastFrame, now: number) {
    entry.lastSentAt = now;
    entry.held = null;
    entry.viewer.frame(frame);
  }

  /**
   * A viewer slower than the capture still gets the newest frame once its
   * interval is up: otherwise the last change before a still screen (a typed
   * character, a click's result) could be the frame it skipped, and it would
   * show the previous state until something else moved.
   */
  private deliverLater(entry: Attached, frame: ScreencastFrame, wait: number) {
    entry.held = frame;
    entry.timer ??= setTimeout(() => {
      entry.timer = null;
      if (entry.held && this.attached.has(entry)) this.send(entry, entry.held, Date.now());
    }, wait);
  }

  private cursor(x: number, y: number) {
    this.lastCursor = { x, y };
    for (const { viewer } of this.attached) viewer.cursor?.(x, y);
  }
}
