// The Tasks pages in a real browser, at 1280 and 390 px, against a server of
// this spec's own whose model `agent.scripted` is the scripted computer-use
// upstream (a steady step a second): start a task from the form, watch steps
// appear with their thumbnails, pause it (by keyboard), resume, stop it, and
// find it in the list with its status; the empty and not-found states too.
import { expect, test } from "@playwright/test";
import { startServer, type TestServer } from "../api/harness";
import { startRecordingPage, SCRIPTED_MODEL, type RecordingPage } from "../api/agent-fixtures";
import { startScriptedUpstream, type ScriptedUpstream } from "../api/scripted-cua-upstream";
import { horizontalOverflow, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

let server: TestServer;
let upstream: ScriptedUpstream;
let site: RecordingPage;

test.beforeAll(async () => {
  upstream = await startScriptedUpstream();
  site = await startRecordingPage();
  server = await startServer({
    env: {
      MODELS: JSON.stringify({
        [SCRIPTED_MODEL]: { backend: "openai-compatible", url: upstream.url, responses: "native" },
      }),
    },
  });
});

test.afterAll(async () => {
  await server?.destroy();
  await upstream?.close();
  await site?.close();
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`start a task, watch its steps, pause, resume and stop it at ${viewport.width} px`, async ({
    browser,
  }, testInfo) => {
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
    expect(await horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `task-page-${viewport.width}`);

    // Pause with the keyboard: focus the button, press Enter.
    await page.getByRole("button", { name: "Pause" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "paused");
    await page.getByRole("textbox", { name: "Message to the agent" }).fill("Keep waiting");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Sent: it joins the next model call.")).toBeVisible();
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
