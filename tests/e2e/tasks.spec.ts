// @needs browser-ui
// The Tasks pages in a real browser, at 1280 and 390 px, against the server
// shared with the other task specs (scripted-world.ts), whose model `agent.scripted` is the scripted computer-use
// upstream (a steady step a second): start a task from the form, watch steps
// appear with their thumbnails, pause it (by keyboard), resume, stop it, and
// find it in the list with its status; the empty and not-found states too.
import { expect, SCRIPTED_MODEL, test } from "./scripted-world";
import { horizontalOverflow, isClipped, saveScreenshot, signUpNewTeam, textContrast } from "./dashboard-helpers";

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`start a task, watch its steps, pause, resume and stop it at ${viewport.width} px`, async ({
    browser,
    world,
  }, testInfo) => {
    const { server, upstream, site } = world;
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: server.url, viewport });
    const page = await context.newPage();
    await signUpNewTeam(page, `Tasker${viewport.width}`);
    // A step a second, for longer than the test: the task keeps running until it is stopped.
    upstream.setScript(
      Array.from({ length: 300 }, (_, i) => ({ text: `Waiting, turn ${i + 1}`, action: { type: "wait" } })),
    );

    // On a phone the navigation is in the drawer behind Menu.
    if (viewport.width < 768) await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Tasks" }).first().click();
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByTestId("tasks-empty")).toBeVisible();
    await page.getByLabel("Instruction").fill("Wait and watch the page");
    await page.getByLabel("Kind").selectOption("browser");
    await page.getByLabel("Model").selectOption(SCRIPTED_MODEL);
    await page.getByLabel("Max steps").fill("100");
    await page.getByLabel("Start URL (optional)").fill(`${site.url}/`);
    await page.getByRole("button", { name: "Start task" }).click();

    await expect(page).toHaveURL(/\/tasks\/task_[0-9a-f]{24}$/);
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "running");
    await expect.poll(() => page.getByTestId("task-step").count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId("task-step").first()).toContainText("Waiting, turn 1");
    await expect(page.getByTestId("task-step").first().locator("img")).toHaveJSProperty("complete", true);
    await expect(page.getByTestId("viewer-state")).toBeVisible();
    // The screen's status line is whole (it read "Watching (read-…" in this column), the recording's dot round.
    await expect.poll(() => isClipped(page.getByTestId("viewer-note"))).toBe(false);
    const dot = (await page.getByTestId("replay-state-dot").boundingBox())!;
    expect(dot.width).toBeCloseTo(dot.height, 0);
    // Pause and Stop come right under the screen, before the replay that only says it records.
    const stopTop = (await page.getByRole("button", { name: "Stop" }).boundingBox())!.y;
    expect(stopTop).toBeLessThan(dot.y);
    expect(await horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `task-page-${viewport.width}`);

    // Pause with the keyboard: focus the button, press Enter.
    await page.getByRole("button", { name: "Pause" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "paused");
    await page.getByRole("textbox", { name: "Message to the agent" }).fill("Keep waiting");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Sent: it joins the next model call after Resume.")).toBeVisible();
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "running");
    await expect(page.getByText("You: Keep waiting")).toBeVisible({ timeout: 20_000 });

    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "stopped");
    await expect(page.getByTestId("screen-ended")).toBeVisible();
    await expect(page.getByRole("button", { name: "Pause" })).toHaveCount(0);

    await page.getByRole("link", { name: "← Tasks" }).click();
    const row = page.getByTestId("task-row").first();
    await expect(row).toContainText("Wait and watch the page");
    await expect(row.getByTestId("task-status")).toHaveAttribute("data-status", "stopped");
    await expect(row.getByTestId("task-status")).toHaveText("stopped"); // not "stopped: stopped"
    expect(await horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `tasks-${viewport.width}`);

    await page.goto("/tasks/task_000000000000000000000000");
    await expect(page.getByText("There is no task task_000000000000000000000000 in this organization.")).toBeVisible();
    await context.close();
  });
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`a task on an existing session, followed step by step at ${viewport.width} px`, async ({
    browser,
    world,
  }, testInfo) => {
    const { server, upstream } = world;
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: server.url, viewport });
    const page = await context.newPage();
    await signUpNewTeam(page, `Follower${viewport.width}`);
    const created = await page.request.post("/api/sessions", { data: { kind: "browser" } });
    expect(created.status()).toBe(201);
    const sessionId = ((await created.json()) as { id: string }).id;
    // A click at the middle (500, 500 of the model's 0–1000 space), then a step a second until stopped.
    upstream.setScript([
      { text: "Clicking the middle", action: { type: "click", x: 500, y: 500 } },
      ...Array.from({ length: 300 }, (_, i) => ({ text: `Waiting, turn ${i + 1}`, action: { type: "wait" } })),
    ]);

    // The session page offers a task on it; the form then has that session picked, with its own kind.
    await page.goto(`/sessions/${sessionId}`);
    await page.getByRole("link", { name: "Start a task on this session" }).click();
    await expect(page).toHaveURL(/\/tasks\?session=/);
    await expect(page.getByLabel("Session")).toHaveValue(sessionId);
    await expect(page.getByLabel("Kind")).toHaveValue("browser");
    await page.getByLabel("Instruction").fill("Click the middle and wait");
    await page.getByLabel("Model").selectOption(SCRIPTED_MODEL);
    await page.getByLabel("Max steps").fill("100");
    await page.getByRole("button", { name: "Start task" }).click();
    await expect(page).toHaveURL(/\/tasks\/task_[0-9a-f]{24}$/);
    const taskId = page.url().split("/").at(-1)!;
    // The session page's list of replays, read before the task began, is not taken for the task's:
    // its replay is not called "no longer kept" (checked as the task first shows, not polled).
    await expect(page.getByTestId("task-status")).toBeVisible();
    expect(await page.getByText("is no longer kept").count()).toBe(0);
    await expect(page.getByTestId("replay-recording")).toBeVisible();

    // The right kind, and the session's live state with its screen (not "ended").
    await expect(page.getByTestId("task-kind")).toContainText("browser");
    expect(((await (await page.request.get(`/api/tasks/${taskId}`)).json()) as { kind: string }).kind).toBe("browser");
    await expect(page.getByTestId("task-session-state")).toContainText(sessionId);
    await expect(page.getByTestId("viewer-state")).toBeVisible();
    await expect(page.getByTestId("screen-ended")).toHaveCount(0);

    // The click in screen pixels (1280×720), its mark on the screenshot, and the step's time, tokens and cost.
    const first = page.getByTestId("task-step").first();
    await expect(first.getByTestId("step-action")).toHaveText("click at (640, 360)", { timeout: 20_000 });
    await expect(first.getByTestId("step-mark")).toBeVisible();
    await expect(first.getByTestId("step-facts")).toHaveText(
      /model \d+ ms · action \d+ ms · 42 in \/ 7 out tokens · \$/,
    );
    await expect(page.getByTestId("task-starter")).toHaveText("by the dashboard");
    await expect(page.getByTestId("task-duration")).toContainText("running for");

    // A message sent while paused is shown as queued until a step takes it.
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "paused");
    await page.getByRole("textbox", { name: "Message to the agent" }).fill("Hold on");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("queued-message")).toContainText("Hold on");
    await expect(page.getByText("Sent: it joins the next model call after Resume.")).toBeVisible();
    expect(await horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `task-follow-${viewport.width}`);
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByText("You: Hold on")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("queued-message")).toHaveCount(0);

    // The session's own page and the session list show the task that drives it, with a link.
    await page.goto(`/sessions/${sessionId}`);
    const banner = page.getByTestId("session-task-banner");
    await expect(banner).toContainText("An agent task drives this session");
    await expect(banner.getByRole("link", { name: "Open the task" })).toHaveAttribute("href", `/tasks/${taskId}`);
    await page.goto("/sessions");
    const row = page.locator(`[data-session-id="${sessionId}"]`);
    await expect(row.getByTestId("session-task").getByRole("link")).toHaveAttribute("href", `/tasks/${taskId}`);

    // A person's Stop reads as stopped, not as an error; the session (not the task's) keeps running.
    await page.goto(`/tasks/${taskId}`);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "stopped");
    await expect(page.getByTestId("task-stopped")).toBeVisible();
    await expect(page.locator("#main").getByRole("alert")).toHaveCount(0);
    await expect(page.getByTestId("task-session-state")).toBeVisible();
    await expect(page.getByTestId("task-duration")).toContainText("took");

    // Once the session ends, the task keeps its last screen.
    expect((await page.request.delete(`/api/sessions/${sessionId}`)).status()).toBeLessThan(300);
    await page.reload();
    await expect(page.getByTestId("screen-ended")).toBeVisible();
    // The session's own last screen, taken as it ended (it arrives just after the end).
    const last = page.getByTestId("last-screenshot").locator("img");
    await expect(last).toHaveAttribute("src", new RegExp(`^/api/sessions/${sessionId}/final-screenshot`), {
      timeout: 15_000,
    });
    await expect.poll(() => last.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await saveScreenshot(page, testInfo, `task-ended-${viewport.width}`);

    // The list tells runs apart: start time, duration, starter, status.
    await page.goto("/tasks");
    const taskRow = page.getByTestId("task-row").first();
    await expect(taskRow.getByTestId("task-started")).toContainText("started");
    await expect(taskRow.getByTestId("task-duration")).toContainText("took");
    await expect(taskRow.getByTestId("task-starter")).toHaveText("by the dashboard");
    await expect(taskRow.getByTestId("task-status")).toHaveAttribute("data-status", "stopped");
    expect(await horizontalOverflow(page)).toBe(0);
    await context.close();
  });
}

test("a finished task shows its answer on the last step", async ({ browser, world }) => {
  const { server, upstream } = world;
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Answerer");
  upstream.setScript([{ text: "Looking", action: { type: "wait" } }, { done: { result: "The price is $5" } }]);
  await page.goto("/tasks");
  await page.getByLabel("Instruction").fill("Tell me the price");
  await page.getByLabel("Model").selectOption(SCRIPTED_MODEL);
  await page.getByRole("button", { name: "Start task" }).click();
  await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  await expect(page.getByTestId("task-step").last().getByTestId("step-answer")).toHaveText("The price is $5");
  // The answer step has no screenshot, and says so legibly (AA: 4.5:1; it was 2.6:1).
  const noShot = page.getByTestId("task-step").last().getByTestId("no-screenshot");
  expect(await textContrast(noShot)).toBeGreaterThanOrEqual(4.5);
  // Finished as asked: "completed", not "completed: done".
  await expect(page.getByTestId("task-status")).toHaveText("completed");

  // A task whose steps ran out is completed too, but says so.
  upstream.setScript([{ text: "Looking", action: { type: "wait" } }]);
  await page.goto("/tasks");
  await page.getByLabel("Instruction").fill("Look once");
  await page.getByLabel("Model").selectOption(SCRIPTED_MODEL);
  await page.getByLabel("Max steps").fill("1");
  await page.getByRole("button", { name: "Start task" }).click();
  await expect(page).toHaveURL(/\/tasks\/task_[0-9a-f]{24}$/);
  await expect(page.getByTestId("task-status")).toHaveText("completed: steps ran out", { timeout: 30_000 });
  await context.close();
});
