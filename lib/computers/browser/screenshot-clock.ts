// The capture of a browser page that animates (docs/live-view-cost.md "How the
// browser capture works"): while a CDP screencast runs, Chromium captures every repaint of the
// page, up to 60 a second, even the ones the pacer then lets it drop unencoded,
// so below the page's own repaint rate a paced screencast still costs about
// twice what the frames delivered do. While the page is busy the capture stops
// the screencast and takes one Page.captureScreenshot per interval instead: one
// capture and one encode per frame shown. When STILL_SHOTS shots in a row come
// back identical, the page has gone still and the screencast (which shows a
// lone repaint at once) takes over again. Pure of CDP: the shots come from `shoot`.

/** Identical shots in a row that mean the page stopped changing. */
export const STILL_SHOTS = 2;
/** Shots the clock takes before judging whether it keeps up with the asked rate. */
export const PACE_SHOTS = 6;
/** The clock gives way when its shots take longer than this share of the interval on average. */
const TOO_SLOW_SHARE = 0.9;
/** A page is busy once the screencast brought this share of the asked fps within BUSY_WINDOW_MS. */
const BUSY_SHARE = 0.8;
const BUSY_WINDOW_MS = 1_000;

export interface ClockHooks {
  /** One screenshot of the page (JPEG), or null when the page is gone. */
  shoot(): Promise<Buffer | null>;
  /** A shot that differs from the one before it. */
  frame(jpeg: Buffer): void;
  /** STILL_SHOTS identical shots: the page is still. Called once; the clock has stopped. */
  still(): void;
  /**
   * One shot after another cannot reach the asked rate here (each takes most of an interval, as at 30 fps on
   * a small machine): the clock has stopped, and the screencast, which pipelines its frames, should stay.
   */
  tooSlow(): void;
}

export class ScreenshotClock {
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private last: Buffer | null = null;
  private repeats = 0;
  private shots = 0;
  private shootingMs = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly hooks: ClockHooks,
  ) {}

  start(): void {
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const startedAt = Date.now();
    const shot = await this.hooks.shoot().catch(() => null);
    if (this.stopped) return;
    if (!shot) return this.stop();
    this.shots++;
    this.shootingMs += Date.now() - startedAt;
    if (this.shots === PACE_SHOTS && this.shootingMs / this.shots > this.intervalMs * TOO_SLOW_SHARE) {
      this.stop();
      return this.hooks.tooSlow();
    }
    if (this.last?.equals(shot)) {
      if (++this.repeats >= STILL_SHOTS - 1) {
        this.stop();
        return this.hooks.still();
      }
    } else {
      this.repeats = 0;
      this.last = shot;
      this.hooks.frame(shot);
    }
    // One shot per interval, counted from the start of this one: a slow shot shortens the wait, never stacks shots.
    this.timer = setTimeout(() => void this.tick(), Math.max(0, this.intervalMs - (Date.now() - startedAt)));
  }
}

/** Whether screencast frames come often enough that the page counts as busy (and a ScreenshotClock is cheaper). */
export class BusyMeter {
  private readonly arrivals: number[] = [];

  constructor(private readonly fps: number) {}

  /** Records a frame's arrival; true once the last BUSY_WINDOW_MS held BUSY_SHARE of the asked fps (at least 3). */
  record(now = Date.now()): boolean {
    this.arrivals.push(now);
    while (this.arrivals.length && this.arrivals[0]! <= now - BUSY_WINDOW_MS) this.arrivals.shift();
    return this.arrivals.length >= Math.max(3, Math.ceil(this.fps * BUSY_SHARE * (BUSY_WINDOW_MS / 1000)));
  }

  reset(): void {
    this.arrivals.length = 0;
  }
}
