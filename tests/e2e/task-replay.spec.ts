// @needs browser-ui
// A finished task's Replay card in a real browser at 1280 and 390 px, against the
// task specs' shared server (scripted-world.ts), real Chromium and ffmpeg: a task
// of four steps on a moving page finishes with `replay_id`; the card plays that
// recording (readyState ≥ 2), each step is a marker the keyboard reaches from the
// video, and Enter or a click on a marker moves the video to the step.
import { horizontalOverflow, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";
import { expect, SCRIPTED_MODEL, test } from "./scripted-world";

const videoTime = (video: import("@playwright/test").Locator) => video.evaluate((v: HTMLVideoElement) => v.currentTime);

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`a finished task's Replay card plays its recording, and its steps seek it at ${viewport.width} px`, async ({
    browser,
    world,
  }, testInfo) => {
    test.setTimeout(150_000);
    const { server, upstream, moving } = world;
    const context = await browser.newContext({ baseURL: server.url, viewport });
    const page = await context.newPage();
    await signUpNewTeam(page, `Replayer${viewport.width}`);
    upstream.setScript([
      ...Array.from({ length: 4 }, (_, i) => ({ text: `Watching, turn ${i + 1}`, action: { type: "wait" } })),
      { done: { result: "The square spins" } },
    ]);
    await page.goto("/tasks");
    await page.getByLabel("Instruction").fill("Watch the square");
    await page.getByLabel("Model").selectOption(SCRIPTED_MODEL);
    await page.getByLabel("Start URL (optional)").fill(`${moving.url}/`);
    await page.getByRole("button", { name: "Start task" }).click();
    await expect(page).toHaveURL(/\/tasks\/task_[0-9a-f]{24}$/);
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await expect(page.getByTestId("task-status")).toHaveText("completed");
    const taskId = page.url().split("/").at(-1)!;
    const task = (await (await page.request.get(`/api/tasks/${taskId}`)).json()) as { replay_id: string | null };
    expect(task.replay_id).toBeTruthy();

    // The card plays the task's own recording once its video is finished.
    const video = page.getByTestId("replay-video");
    await expect(video).toHaveAttribute("aria-label", `Replay ${task.replay_id}`, { timeout: 60_000 });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2);
    expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);

    // Each step is a marker; Tab from the video reaches the first, and Enter seeks to a step.
    const markers = page.getByTestId("replay-marker");
    await expect.poll(() => markers.count()).toBeGreaterThanOrEqual(2);
    await expect(markers.first()).toContainText("Step 1: wait");
    await video.focus();
    for (let i = 0; i < 20; i++) {
      if (await markers.first().evaluate((m) => m === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    await expect(markers.first()).toBeFocused();
    const [first, last] = [markers.first(), markers.last()];
    const firstOffset = Number(await first.getAttribute("data-offset"));
    const lastOffset = Number(await last.getAttribute("data-offset"));
    expect(lastOffset - firstOffset).toBeGreaterThan(0.5);
    await last.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => videoTime(video)).toBeCloseTo(lastOffset, 1);
    // A click on another step moves the video back to it.
    await first.click();
    await expect.poll(() => videoTime(video)).toBeCloseTo(firstOffset, 1);

    await expect.poll(() => horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `task-replay-${viewport.width}`);
    await context.close();
  });
}
