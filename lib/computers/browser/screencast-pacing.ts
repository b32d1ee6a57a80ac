// How a browser capture keeps Chromium's cost tied to the frames it delivers
// (docs/live-view-cost.md). Chromium JPEG-encodes and sends a screencast frame
// for every repaint (up to 60 a second) as long as at most three frames are
// unacknowledged; with three out it drops the repaint without encoding it. So
// ScreencastPacer acknowledges at most one frame per interval of the asked fps:
// a page animating at 60 fps then costs about `fps` encodes a second, and a
// still page, whose repaints are rare, has every frame acknowledged at once, so
// a lone repaint (a key press on a still page) is never dropped and shows as
// fast as before. A dropped repaint can only happen while the window is full,
// i.e. while the page repaints often; the last one before the page goes still
// is caught by `settle` (a Page.captureScreenshot) once no frame has come for
// SETTLE_MS after the last acknowledgement. Chromium counts frames still being
// encoded as in flight too, which this side cannot see, so any sign of a busy
// page (two frames waiting, or two within BUSY_INTERVALS of each other) counts.

/**
 * Chromium admits a new screencast frame while at most this many are unacknowledged (kMaxScreencastFramesInFlight + 1).
 */
export const CHROMIUM_FRAMES_IN_FLIGHT = 3;
/** Quiet time after the last acknowledgement that means the page stopped repainting. */
export const SETTLE_MS = 120;
/** Frames closer together than this many intervals mean the page is busy enough that Chromium may drop one. */
const BUSY_INTERVALS = 2;

export interface PacerHooks {
  /** Acknowledge screencast frame `sessionId` (Page.screencastFrameAck). */
  ack(sessionId: number): void;
  /** Chromium may have dropped the last repaint: capture the page once and show it. */
  settle(): void;
}

export class ScreencastPacer {
  private readonly unacked: number[] = [];
  /**
   * Earliest time the next acknowledgement may go; advanced by one interval per ack, so timer lateness does not add up.
   */
  private nextAckAt = 0;
  private ackTimer: NodeJS.Timeout | null = null;
  private settleTimer: NodeJS.Timeout | null = null;
  /** The page was busy since the last settle, so Chromium may have dropped a repaint. */
  private mayHaveDropped = false;
  private lastReceivedAt = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly hooks: PacerHooks,
  ) {}

  /** A screencast frame arrived (already handed to the viewers). */
  received(sessionId: number) {
    if (this.stopped) return;
    const now = Date.now();
    this.unacked.push(sessionId);
    if (this.unacked.length > 1 || now - this.lastReceivedAt < BUSY_INTERVALS * this.intervalMs)
      this.mayHaveDropped = true;
    this.lastReceivedAt = now;
    this.clearSettle();
    this.pump();
  }

  /** Frames waiting for their acknowledgement (tests and the bench's curiosity). */
  get waiting(): number {
    return this.unacked.length;
  }

  stop() {
    this.stopped = true;
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    this.clearSettle();
  }

  private pump() {
    if (this.stopped || this.ackTimer || this.unacked.length === 0) return;
    const wait = this.nextAckAt - Date.now();
    if (wait <= 0) {
      this.ackOne();
      return;
    }
    this.ackTimer = setTimeout(() => {
      this.ackTimer = null;
      if (this.stopped) return;
      this.ackOne();
    }, wait);
  }

  private ackOne() {
    const sessionId = this.unacked.shift();
    if (sessionId === undefined) return;
    const now = Date.now();
    // Acknowledgements late by less than an interval keep the cadence; after a pause the cadence starts afresh.
    this.nextAckAt = (now - this.nextAckAt < this.intervalMs ? this.nextAckAt : now) + this.intervalMs;
    this.hooks.ack(sessionId);
    if (this.unacked.length > 0) this.pump();
    else if (this.mayHaveDropped) this.armSettle();
  }

  private armSettle() {
    this.clearSettle();
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (this.stopped || this.unacked.length > 0) return;
      this.mayHaveDropped = false;
      // The burst is over. Page.captureScreenshot makes Chromium repaint, and that repaint comes back as a
      // screencast frame soon after: measured from the burst's last frame it looked busy (at fps 5 the busy
      // span is 400 ms), settled again, and a still page was captured six times a second for ever.
      this.lastReceivedAt = Number.NEGATIVE_INFINITY;
      this.hooks.settle();
    }, SETTLE_MS);
  }

  private clearSettle() {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
  }
}
