// @needs nothing
// ScreencastPacer: at most one acknowledgement per interval (so Chromium encodes
// about `fps` frames a second), a lone frame acknowledged at once (so a still
// page's repaint is never dropped), and one settle capture after a busy stretch.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHROMIUM_FRAMES_IN_FLIGHT, SETTLE_MS, ScreencastPacer } from "@/lib/computers/browser/screencast-pacing";

function pacer(intervalMs: number) {
  const acks: { id: number; at: number }[] = [];
  let settles = 0;
  const p = new ScreencastPacer(intervalMs, {
    ack: (id) => acks.push({ id, at: Date.now() }),
    settle: () => settles++,
  });
  return { p, acks, settles: () => settles };
}

describe("ScreencastPacer", () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it("acknowledges a lone frame at once, and again after a pause", () => {
    const { p, acks } = pacer(100);
    p.received(1);
    expect(acks).toEqual([{ id: 1, at: 1_000_000 }]);
    vi.advanceTimersByTime(500);
    p.received(2);
    expect(acks.map((a) => a.id)).toEqual([1, 2]);
    expect(acks[1].at).toBe(1_000_500);
  });

  it("spaces acknowledgements one interval apart while frames come faster", () => {
    const { p, acks } = pacer(100);
    // A 60 fps page: Chromium sends while fewer than CHROMIUM_FRAMES_IN_FLIGHT are unacknowledged.
    let id = 0;
    for (let t = 0; t < 1000; t += 16) {
      if (p.waiting < CHROMIUM_FRAMES_IN_FLIGHT) p.received(++id);
      vi.advanceTimersByTime(16);
    }
    const gaps = acks.slice(1).map((a, i) => a.at - acks[i].at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(100);
    // About ten a second: the cadence does not drift by the timers' lateness.
    expect(acks.length).toBeGreaterThanOrEqual(10);
    expect(acks.length).toBeLessThanOrEqual(11);
  });

  it("takes one settle capture when a busy stretch ends, none for lone frames", () => {
    const { p, settles } = pacer(100);
    p.received(1);
    vi.advanceTimersByTime(1000);
    p.received(2);
    vi.advanceTimersByTime(1000);
    expect(settles()).toBe(0);
    for (let id = 3; id < 3 + CHROMIUM_FRAMES_IN_FLIGHT; id++) p.received(id);
    expect(p.waiting).toBe(CHROMIUM_FRAMES_IN_FLIGHT - 1);
    vi.advanceTimersByTime(200);
    expect(p.waiting).toBe(0);
    expect(settles()).toBe(0);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(settles()).toBe(1);
    vi.advanceTimersByTime(5000);
    expect(settles()).toBe(1);
  });

  it("does not settle again for the repaint its own settle capture causes", () => {
    // fps 5: the busy span (two intervals, 400 ms) is longer than SETTLE_MS plus a screenshot.
    const { p, settles } = pacer(200);
    p.received(1);
    vi.advanceTimersByTime(100);
    p.received(2); // close to the first: busy, so a repaint may have been dropped
    vi.advanceTimersByTime(100 + SETTLE_MS); // acknowledged at 200, settled SETTLE_MS later
    expect(settles()).toBe(1);
    // Page.captureScreenshot's repaint comes back as a screencast frame 40 ms later; the page is otherwise still.
    vi.advanceTimersByTime(40);
    p.received(3);
    vi.advanceTimersByTime(5000);
    expect(settles()).toBe(1);
  });

  it("counts two frames close together as busy even when neither waited", () => {
    const { p, acks, settles } = pacer(100);
    p.received(1);
    vi.advanceTimersByTime(150);
    p.received(2);
    expect(acks.length).toBe(2);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(settles()).toBe(1);
  });

  it("does not settle while frames keep coming after the window was full", () => {
    const { p, settles } = pacer(50);
    for (let id = 1; id <= CHROMIUM_FRAMES_IN_FLIGHT; id++) p.received(id);
    let id = 10;
    for (let t = 0; t < 1000; t += 40) {
      vi.advanceTimersByTime(40);
      p.received(++id);
    }
    expect(settles()).toBe(0);
  });

  it("stops acknowledging and settling once stopped", () => {
    const { p, acks, settles } = pacer(100);
    for (let id = 1; id <= CHROMIUM_FRAMES_IN_FLIGHT; id++) p.received(id);
    p.stop();
    vi.advanceTimersByTime(1000);
    expect(acks.length).toBe(1);
    expect(settles()).toBe(0);
  });
});
