// @needs nothing
// The screenshot store's kept files on a real temporary DATA_DIR: a kept copy of a
// step's screenshot outlives the 15 minutes of step screenshots, a session's final
// screenshot is found as its newest, and both go after KEPT_SCREENSHOT_RETENTION_MS.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";

let store: typeof import("@/lib/computers/screenshots/screenshots");
const id = "comp_0123456789abcdef01234567";
const MINUTE = 60_000;

beforeAll(async () => {
  vi.stubEnv("DATA_DIR", mkdtempSync(path.join(os.tmpdir(), "cabin-kept-")));
  store = await import("@/lib/computers/screenshots/screenshots");
});

describe("kept screenshots", () => {
  it("a kept step screenshot is still read after the step screenshots' sweep, until the retention", async () => {
    const name = await store.storeScreenshot(id, Buffer.from("step"), "image/jpeg");
    const other = await store.storeScreenshot(id, Buffer.from("other"), "image/png");
    expect(await store.keepScreenshot(id, name)).toBe(true);
    const taken = Number(name.split("_")[1]);
    await store.sweepScreenshots(taken + 16 * MINUTE);
    expect(await store.readScreenshot(id, other)).toBeNull();
    expect((await store.readScreenshot(id, name))?.data.toString()).toBe("step");
    await store.sweepScreenshots(taken + store.KEPT_SCREENSHOT_RETENTION_MS + MINUTE);
    expect(await store.readScreenshot(id, name)).toBeNull();
  });

  it("keeping a screenshot that is gone (or a malformed name) says so", async () => {
    expect(await store.keepScreenshot(id, "shot_1_000000000000.jpg")).toBe(false);
    expect(await store.keepScreenshot(id, "../../etc/passwd")).toBe(false);
  });

  it("the final screenshot is the newest one stored, and goes after the retention", async () => {
    expect(await store.readFinalScreenshot(id)).toBeNull();
    await store.storeFinalScreenshot(id, Buffer.from("first"), "image/jpeg");
    const before = Date.now(); // the second one in a later millisecond, so "newest" is defined
    await vi.waitUntil(() => Date.now() > before);
    await store.storeFinalScreenshot(id, Buffer.from("second"), "image/jpeg");
    const final = await store.readFinalScreenshot(id);
    expect(final).toMatchObject({ mime: "image/jpeg" });
    expect(final!.data.toString()).toBe("second");
    await store.sweepScreenshots(final!.takenAt.getTime() + 16 * MINUTE);
    expect(await store.readFinalScreenshot(id)).not.toBeNull();
    await store.sweepScreenshots(final!.takenAt.getTime() + store.KEPT_SCREENSHOT_RETENTION_MS + MINUTE);
    expect(await store.readFinalScreenshot(id)).toBeNull();
  });
});
