// @needs browser-ui
// The session page's Replays panel in a real browser against the real server,
// Chromium and ffmpeg, at 1280 and 390 px: Record and Stop recording on a live
// session, then the video plays (readyState ≥ 2, a duration) with the session's
// events as markers, and a marker seeks the video to its moment.
import { expect, test } from "@playwright/test";
import { createServer } from "node:http";
import { listenOnLoopback, type LoopbackServer } from "../api/loopback";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

// Pages that keep moving (a spinning square), so the recording has frames to keep.
let site: LoopbackServer;
test.beforeAll(async () => {
  site = await listenOnLoopback(
    createServer((req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><title>page ${req.url?.slice(1)}</title>` +
            `<style>#s{width:160px;height:160px;margin:40px;background:#2563eb;animation:r 1s linear infinite}` +
            `@keyframes r{to{transform:rotate(360deg)}}</style><h1>Page ${req.url}</h1><div id=s></div>`,
        ),
    ),
  );
});
test.afterAll(async () => site?.close());

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`Record, Stop recording, and the replay plays with markers that seek at ${viewport.width} px`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ baseURL: base(), viewport });
    const page = await context.newPage();
    await signUpNewTeam(page, `Replay${viewport.width}`);
    const created = await page.request.post("/api/sessions", { data: { kind: "browser" } });
    expect(created.status()).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    await page.goto(`/sessions/${id}`);
    await expect(page.getByTestId("viewer-state")).toHaveAttribute("data-state", "live");
    const panel = page.getByTestId("replays-panel");
    await expect(panel.getByTestId("replays-empty")).toBeVisible();

    // Record (by keyboard), then things happen on the session while it records.
    await page.getByRole("button", { name: "Record" }).focus();
    await page.keyboard.press("Enter");
    await expect(panel.getByTestId("replay-recording")).toBeVisible();
    const address = page.getByRole("textbox", { name: "Address of the current tab" });
    for (const name of ["a", "b"]) {
      await address.fill(`${site.url}/${name}`);
      await address.press("Enter");
      await expect(page.getByTestId("tab").first()).toContainText(`page ${name}`);
    }
    await page.getByRole("button", { name: "Stop recording" }).click();

    // The video plays once finished, and the navigations are markers on it.
    const video = panel.getByTestId("replay-video");
    await expect(video).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2);
    expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);
    const marker = panel.getByTestId("replay-marker").filter({ hasText: `go_to_url ${site.url}/b` });
    await expect(marker).toHaveCount(1);
    const offset = Number(await marker.getAttribute("data-offset"));
    await marker.click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(offset, 1);
    await expect.poll(() => horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `session-replay-${viewport.width}`);
    await context.close();
  });
}
