// Live-view frames of a browser session: CDP Page.startScreencast on the main
// tab (JPEG at the viewport's size). Chromium would encode every frame it
// paints (up to 60 a second); ScreencastPacer acknowledges at most one frame
// per interval of the asked fps, so Chromium encodes about that many and drops
// the rest unencoded, and a Page.captureScreenshot after an animation stops
// shows its last repaint (docs/live-view-cost.md). While the page stays busy
// (BusyMeter) the screencast stops and a ScreenshotClock takes one screenshot
// per interval instead, until the page is still again. Every frame that arrives is
// offered to `thin`, which sends at most `fps` a second and keeps the latest
// skipped one to send when its turn comes, so the last change before a still
// screen is never the one left out. The main tab changes on new_tab,
// switch_tab, popups and closes, and TabSet has no change events, so the
// capture checks the main page a few times a second and moves to the new one.
import type { CDPSession, Page } from "playwright-core";
import type { ScreencastFrame, ScreencastSettings, ScreencastSink } from "@/lib/computers/driver";
import { CaptureSet } from "@/lib/computers/live/captures";
import { liveViewStats } from "@/lib/computers/live/hub";
import { ScreencastPacer } from "@/lib/computers/browser/screencast-pacing";
import { BusyMeter, ScreenshotClock } from "@/lib/computers/browser/screenshot-clock";
import { settlesWithin } from "@/lib/settles-within";

const FOLLOW_MAIN_EVERY_MS = 200;
const THIN_SLACK = 0.75;

interface ScreencastFrameEvent {
  data: string;
  sessionId: number;
  metadata: { deviceWidth: number; deviceHeight: number; timestamp?: number };
}

/** One capture: follows the main page until stopped. */
class PageCapture {
  private page: Page | undefined;
  private cdp: CDPSession | null = null;
  /** Set while the screencast runs (a still or lightly changing page). */
  private pacer: ScreencastPacer | null = null;
  /** Set while the page is busy: screenshots on a clock, the screencast stopped. */
  private clock: ScreenshotClock | null = null;
  /** The clock could not keep the asked rate on this page: the paced screencast stays for this capture. */
  private clockTooSlow = false;
  private readonly busy: BusyMeter;
  /** Screencast frames received; a settle screenshot taken while one arrived may be older than it and is dropped. */
  private framesReceived = 0;
  private size = "";
  private stopped = false;
  private switching: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private lastSentAt = 0;
  /** The newest frame that came too soon after the last one sent, and the timer that sends it. */
  private held: (() => ScreencastFrame) | null = null;
  private holdTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly mainPage: () => Page | undefined,
    private readonly settings: ScreencastSettings,
    private readonly sink: ScreencastSink,
  ) {
    this.busy = new BusyMeter(settings.fps);
    this.timer = setInterval(() => this.follow(), FOLLOW_MAIN_EVERY_MS);
    this.timer.unref();
  }

  /** Re-targets the capture when the main page or its viewport changed. */
  follow(): Promise<void> {
    this.switching = this.switching.then(async () => {
      if (this.stopped) return;
      const page = this.mainPage();
      const size = page?.viewportSize();
      const sizeKey = size ? `${size.width}x${size.height}` : "";
      if (page === this.page && sizeKey === this.size && (this.cdp || !page)) return;
      await this.detach();
      this.page = page;
      this.size = sizeKey;
      if (page && !page.isClosed()) await this.attach(page, size ?? undefined).catch(() => this.detach());
    });
    return this.switching;
  }

  private async attach(page: Page, size?: { width: number; height: number }) {
    const cdp = await page.context().newCDPSession(page);
    this.cdp = cdp;
    cdp.on("Page.screencastFrame", (event: ScreencastFrameEvent) => {
      liveViewStats().browser_screencast_frames++;
      const pacer = this.pacer;
      // A frame still in flight when the screencast stopped for the clock is left out: the clock's first shot is newer.
      if (this.stopped || this.cdp !== cdp || !pacer) return;
      this.framesReceived++;
      const { deviceWidth, deviceHeight, timestamp } = event.metadata;
      // Decoded only if sent: a frame replaced before its turn never is.
      this.thin(() => ({
        jpeg: Buffer.from(event.data, "base64"),
        width: Math.round(deviceWidth),
        height: Math.round(deviceHeight),
        timestamp: timestamp ? Math.round(timestamp * 1000) : Date.now(),
      }));
      pacer.received(event.sessionId);
      if (this.busy.record() && !this.clockTooSlow) this.switchMode(cdp, size, "clock");
    });
    await this.startScreencast(cdp, size);
  }

  private async startScreencast(cdp: CDPSession, size?: { width: number; height: number }) {
    this.busy.reset();
    this.pacer = new ScreencastPacer(1000 / this.settings.fps, {
      ack: (sessionId) => void cdp.send("Page.screencastFrameAck", { sessionId }).catch(() => {}),
      settle: () => void this.screenshot(cdp, size),
    });
    await cdp.send("Page.startScreencast", {
      format: "jpeg",
      quality: this.settings.quality,
      ...(size ? { maxWidth: size.width, maxHeight: size.height } : {}),
      everyNthFrame: 1,
    });
    // Chromium sends screencast frames only when something repaints: a still page would show a new viewer
    // nothing, and a change between the clock's last shot and this start would be lost, so one screenshot. A
    // renderer busy with a navigation may not answer it: the capture starts all the same.
    await settlesWithin(this.screenshot(cdp, size), RENDERER_ANSWER_MS);
  }

  /** Busy page: screencast → screenshot clock; still again: clock → screencast. Serialized with `follow`. */
  private switchMode(cdp: CDPSession, size: { width: number; height: number } | undefined, to: "clock" | "screencast") {
    if (to === "clock") {
      // Stop feeding frames at once; the switch itself waits its turn.
      this.pacer?.stop();
      this.pacer = null;
    }
    this.switching = this.switching.then(async () => {
      if (this.stopped || this.cdp !== cdp) return;
      if (to === "screencast") {
        this.clock = null;
        return this.startScreencast(cdp, size).catch(() => {});
      }
      if (this.clock) return;
      await cdp.send("Page.stopScreencast").catch(() => {});
      const clock = new ScreenshotClock(1000 / this.settings.fps, {
        shoot: () => this.shoot(cdp),
        frame: (jpeg) =>
          size && this.thin(() => ({ jpeg, width: size.width, height: size.height, timestamp: Date.now() })),
        still: () => this.clock === clock && this.switchMode(cdp, size, "screencast"),
        tooSlow: () => {
          this.clockTooSlow = true;
          if (this.clock === clock) this.switchMode(cdp, size, "screencast");
        },
      });
      this.clock = clock;
      clock.start();
    });
  }

  private async shoot(cdp: CDPSession): Promise<Buffer | null> {
    const shot = (await cdp
      .send("Page.captureScreenshot", { format: "jpeg", quality: this.settings.quality })
      .catch(() => null)) as { data: string } | null;
    if (!shot || this.stopped || this.cdp !== cdp) return null;
    liveViewStats().browser_screencast_frames++;
    return Buffer.from(shot.data, "base64");
  }

  /**
   * One Page.captureScreenshot of the current page, sent unless a screencast frame arrived meanwhile (it may be newer).
   */
  private async screenshot(cdp: CDPSession, size?: { width: number; height: number }) {
    const before = this.framesReceived;
    const jpeg = await this.shoot(cdp);
    if (!jpeg || !size || this.framesReceived !== before) return;
    this.thin(() => ({ jpeg, width: size.width, height: size.height, timestamp: Date.now() }));
  }

  /**
   * Sends about `fps` frames a second; a frame that comes too soon waits for its turn unless a newer one replaces it.
   * The pacer already spaces frames one interval apart on average: THIN_SLACK keeps their arrival jitter from
   * holding each one back a little more than the last until one is replaced.
   */
  private thin(frame: () => ScreencastFrame) {
    const wait = this.lastSentAt + (1000 / this.settings.fps) * THIN_SLACK - Date.now();
    if (wait <= 0 && !this.holdTimer) return this.send(frame());
    this.held = frame;
    this.holdTimer ??= setTimeout(
      () => {
        this.holdTimer = null;
        const held = this.held;
        this.held = null;
        if (held && !this.stopped) this.send(held());
      },
      Math.max(0, wait),
    );
  }

  private send(frame: ScreencastFrame) {
    this.lastSentAt = Date.now();
    this.sink.frame(frame);
  }

  private async detach() {
    const cdp = this.cdp;
    this.cdp = null;
    this.pacer?.stop();
    this.pacer = null;
    this.clock?.stop();
    this.clock = null;
    if (!cdp) return;
    // The renderer answers stopScreencast; one that is stuck must not hold the detach (the browser answers that).
    await settlesWithin(cdp.send("Page.stopScreencast"), RENDERER_ANSWER_MS);
    await cdp.detach().catch(() => {});
  }

  async stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.holdTimer) clearTimeout(this.holdTimer);
    // Detach first: a capture call stuck in the renderer (a screenshot during a navigation) then rejects, and
    // the switching chain settles instead of holding the session's end (docs/computers.md "How a session ends").
    await this.detach();
    await this.switching.catch(() => {});
    await this.detach(); // what an attach in flight set up meanwhile
  }
}

/** Frames of the main tab (follows tab switches), one CDP screencast per capture. */
export function browserScreencast(mainPage: () => Page | undefined): CaptureSet {
  return new CaptureSet(async (settings, sink) => {
    const capture = new PageCapture(mainPage, settings, sink);
    await capture.follow();
    return capture;
  });
}

/** How long a call the renderer answers may take before a stop goes on without it. */
const RENDERER_ANSWER_MS = 1_000;
