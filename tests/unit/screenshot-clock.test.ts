// @needs nothing
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BusyMeter, PACE_SHOTS, ScreenshotClock, STILL_SHOTS } from "@/lib/computers/browser/screenshot-clock";

describe("ScreenshotClock", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A clock over a page whose screen is `screens[i]` at the i-th shot (the last one repeats). */
  function clockOver(screens: string[]) {
    let shots = 0;
    const frames: string[] = [];
    const still = vi.fn();
    const tooSlow = vi.fn();
    const clock = new ScreenshotClock(200, {
      shoot: async () => Buffer.from(screens[Math.min(shots++, screens.length - 1)]!),
      frame: (jpeg) => void frames.push(jpeg.toString()),
      still,
      tooSlow,
    });
    return { clock, frames, still, tooSlow, shotsTaken: () => shots };
  }

  it("takes one shot per interval and passes on each change", async () => {
    const { clock, frames, shotsTaken, tooSlow } = clockOver(["a", "b", "c", "d", "e", "f", "g", "h"]);
    clock.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(shotsTaken()).toBe(1);
    await vi.advanceTimersByTimeAsync(199);
    expect(shotsTaken()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(shotsTaken()).toBe(2);
    await vi.advanceTimersByTimeAsync(600);
    expect(frames).toEqual(["a", "b", "c", "d", "e"]);
    await vi.advanceTimersByTimeAsync(600);
    expect(tooSlow).not.toHaveBeenCalled();
    clock.stop();
  });

  it(`gives way when its first ${PACE_SHOTS} shots take most of each interval`, async () => {
    let shots = 0;
    const tooSlow = vi.fn();
    const clock = new ScreenshotClock(100, {
      shoot: () => new Promise((resolve) => setTimeout(() => resolve(Buffer.from(String(shots++))), 95)),
      frame: () => {},
      still: () => {},
      tooSlow,
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tooSlow).toHaveBeenCalledTimes(1);
    expect(shots).toBe(PACE_SHOTS);
  });

  it(`stops and says 'still' after ${STILL_SHOTS} identical shots, and sends no repeat`, async () => {
    const { clock, frames, still, shotsTaken } = clockOver(["a", "b", "b", "b"]);
    clock.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(frames).toEqual(["a", "b"]);
    expect(still).toHaveBeenCalledTimes(1);
    expect(shotsTaken()).toBe(1 + STILL_SHOTS);
  });

  it("stops when the page is gone (no shot)", async () => {
    let shots = 0;
    const clock = new ScreenshotClock(100, {
      shoot: async () => (shots++ === 0 ? Buffer.from("a") : null),
      frame: () => {},
      still: () => {},
      tooSlow: () => {},
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(shots).toBe(2);
  });
});

describe("BusyMeter", () => {
  it("counts a page busy at 80 % of the asked fps within a second, not a lone repaint or a slow blink", () => {
    const fps5 = new BusyMeter(5);
    expect([0, 200, 400].map((t) => fps5.record(t))).toEqual([false, false, false]);
    expect(fps5.record(600)).toBe(true);
    const blink = new BusyMeter(15);
    expect([0, 500, 1000, 1500, 2000].some((t) => blink.record(t))).toBe(false);
    const fps15 = new BusyMeter(15);
    const busy = Array.from({ length: 12 }, (_, i) => fps15.record(i * 66));
    expect(busy.indexOf(true)).toBe(11);
    fps15.reset();
    expect(fps15.record(2_000)).toBe(false);
  });
});
