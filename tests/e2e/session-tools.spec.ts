// @needs browser-ui
// The session page's panels in a real browser against the real server: the exec
// console on a real desktop (streamed output, stderr, exit code, Stop, ↑ recall),
// the event timeline showing an action sent through the API with its request_id,
// and Connect with Playwright, whose snippets really connect over CDP.
import { expect, test, type Page } from "@playwright/test";
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { listenOnLoopback } from "../api/loopback";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam, unique } from "./dashboard-helpers";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

async function newKey(page: Page): Promise<string> {
  const res = await page.request.post("/api/keys", { data: { name: `tools ${unique()}` } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

async function newSession(page: Page, kind: "browser" | "desktop"): Promise<string> {
  const res = await page.request.post("/api/sessions", { data: { kind } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/**
 * Runs client code the page shows as a Node module inside the repository, so `playwright` and `puppeteer-core` resolve.
 */
async function runSnippet(code: string): Promise<string> {
  const dir = path.join(root, "test-results", "snippets");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `snippet-${unique()}.mjs`);
  writeFileSync(file, code);
  const { stdout } = await run(process.execPath, [file], { timeout: 30_000 });
  return stdout;
}

test("desktop: the exec console streams output and the timeline shows an API action", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Tools");
  const key = await newKey(page);
  const id = await newSession(page, "desktop");
  const api = (p: string, data: unknown) =>
    page.request.post(`/computers/${id}${p}`, { headers: { authorization: `Bearer ${key}` }, data });

  await page.goto(`/sessions/${id}`);
  const consolePanel = page.getByTestId("exec-console");
  const timeline = page.getByTestId("event-timeline");
  await expect(timeline.getByTestId("timeline-empty")).toContainText(
    "No actions yet — they appear here as your agent drives the session",
  );
  await expect(page.getByTestId("timeline-state")).toHaveAttribute("data-state", "open");
  // The console lists what this page ran; what the API runs is in the timeline, and it says so.
  await expect(consolePanel.getByTestId("exec-empty")).toContainText("No commands run from this page yet");

  // stdout and stderr, told apart, and the exit code.
  const input = consolePanel.getByLabel("Command");
  await input.fill("echo hello; echo oops 1>&2; exit 3");
  await input.press("Enter");
  const first = consolePanel.getByTestId("exec-run").first();
  await expect(first.getByTestId("exec-status")).toHaveText("exit 3");
  await expect(first.locator('[data-stream="stdout"]')).toHaveText("hello\n");
  await expect(first.locator('[data-stream="stderr"]')).toHaveText("oops\n");

  // Streamed: the command cannot end before the test, having seen its first line, opens the gate.
  const gate = `/tmp/tools-gate-${unique()}`;
  await input.fill(`echo first; while [ ! -e ${gate} ]; do sleep 0.1; done; echo second`);
  await input.press("Enter");
  const streamed = consolePanel.getByTestId("exec-run").first();
  await expect(streamed.getByTestId("exec-output")).toHaveText("first\n");
  await expect(streamed).toHaveAttribute("data-state", "running");
  expect((await api("/exec/sync", { command: `touch ${gate}` })).status()).toBe(200);
  await expect(streamed.getByTestId("exec-output")).toHaveText("first\nsecond\n");
  await expect(streamed.getByTestId("exec-status")).toHaveText("exit 0");

  // Enter while a command runs is not dropped in silence: the command stays, and the console says why.
  await input.fill("sleep 60");
  await input.press("Enter");
  await expect(consolePanel.getByTestId("exec-run").first()).toHaveAttribute("data-state", "running");
  await input.fill("echo later");
  await input.press("Enter");
  await expect(consolePanel.getByTestId("exec-busy")).toBeVisible();
  await expect(input).toHaveValue("echo later");
  // Stop aborts the request; the run says so and the console takes commands again.
  await consolePanel.getByRole("button", { name: "Stop" }).click();
  await expect(consolePanel.getByTestId("exec-run").first()).toHaveAttribute("data-state", "stopped");
  await expect(consolePanel.getByRole("button", { name: "Run" })).toBeVisible();

  // ↑ walks back through this visit's commands.
  await input.press("ArrowUp");
  await expect(input).toHaveValue("sleep 60");
  await input.press("ArrowUp");
  await expect(input).toHaveValue(`echo first; while [ ! -e ${gate} ]; do sleep 0.1; done; echo second`);
  await input.press("ArrowDown");
  await input.press("ArrowDown");
  await expect(input).toHaveValue("");

  // An action an agent sends with its key appears with its request_id, paired with its outcome.
  const action = await api("/execute", { action: { type: "wait", ms: 50 } });
  expect(action.status()).toBe(200);
  const requestId = ((await action.json()) as { request_id: string }).request_id;
  const entry = timeline.locator(`[data-testid="timeline-action"][data-request-id="${requestId}"]`);
  await expect(entry).toContainText("wait");
  await expect(entry).toContainText(/success in \d+ (ms|\.\d+ s)/);
  await expect(entry).toContainText(requestId);
  // The console's own runs are named by their command (matched through the run's request id).
  const execEntry = timeline.getByTestId("timeline-exec").filter({ hasText: "exit 3" });
  await expect(execEntry).toHaveCount(1);
  await expect(execEntry).toContainText("exec echo hello; echo oops 1>&2; exit 3");
  await expect(execEntry).toContainText("with stderr");
  // A stopped command reads as stopped, not as a made-up exit code.
  const stoppedEntry = timeline.getByTestId("timeline-exec").filter({ hasText: "exec sleep 60" });
  await expect(stoppedEntry).toContainText("stopped");
  await expect(stoppedEntry).not.toContainText("exit -1");
  // Replayed after a reload, each command keeps the time it ran, not the time of the reload.
  const reloadedAt = Date.now();
  await page.reload();
  const replayed = page.getByTestId("event-timeline").getByTestId("timeline-exec").filter({ hasText: "exit 3" });
  await expect(replayed).toHaveCount(1);
  expect(Date.parse((await replayed.locator("time").getAttribute("datetime"))!)).toBeLessThan(reloadedAt);

  await saveScreenshot(page, testInfo, "session-tools-desktop-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(consolePanel).toBeVisible();
  // Polled: the page lays out again after the resize (the live view measures its box in a ResizeObserver).
  await expect
    .poll(() => horizontalOverflow(page), { message: "horizontal overflow of the session tools at 390 px" })
    .toBeLessThanOrEqual(0);
  await saveScreenshot(page, testInfo, "session-tools-desktop-390");

  // The end of the session reaches the panels through the timeline.
  expect((await page.request.delete(`/api/sessions/${id}`)).status()).toBe(204);
  await expect(timeline.getByTestId("timeline-ended")).toContainText("Session ended: stopped");
  await expect(consolePanel).toContainText("This session has ended");
  await context.close();
});

test("browser: Connect with Playwright shows the CDP URL, and its snippets connect", async ({ browser }, testInfo) => {
  const site = await listenOnLoopback(
    createServer((_req, res) => res.end("<title>Tools e2e page</title><h1>hello</h1>")),
  );
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base() });
  const page = await context.newPage();
  try {
    await signUpNewTeam(page, "Cdp");
    const key = await newKey(page);
    const id = await newSession(page, "browser");
    const navigated = await page.request.post(`/computers/${id}/navigate`, {
      headers: { authorization: `Bearer ${key}` },
      data: { url: site.url },
    });
    expect(navigated.status()).toBe(200);

    await page.goto(`/sessions/${id}`);
    const panel = page.getByTestId("cdp-panel");
    const cdpUrl = (await panel.getByTestId("cdp-url").textContent())!;
    expect(cdpUrl).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/computers/${id}/cdp\\?token=\\d+\\.`));
    await expect(panel.getByTestId("cdp-expiry")).toContainText("short-lived token");
    await expect(panel.getByTestId("cdp-expiry").locator("time")).toHaveAttribute("datetime", /^\d{4}-/);

    // The copy button puts exactly the URL on the clipboard.
    await panel.getByRole("button", { name: "Copy URL" }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(cdpUrl);

    // The Playwright snippet, run as it is shown, reaches this session's page.
    const playwright = (await panel.getByTestId("cdp-snippet-playwright").textContent())!;
    expect(playwright).toContain(`chromium.connectOverCDP(${JSON.stringify(copied)})`);
    expect(await runSnippet(playwright)).toContain("Tools e2e page");

    await saveScreenshot(page, testInfo, "session-tools-browser-1280");

    // So does the Puppeteer one; the Python one names the same URL.
    await panel.getByRole("button", { name: "Puppeteer" }).click();
    expect(await runSnippet((await panel.getByTestId("cdp-snippet-puppeteer").textContent())!)).toContain(
      "Tools e2e page",
    );
    await panel.getByRole("button", { name: "Python" }).click();
    await expect(panel.getByTestId("cdp-snippet-python")).toContainText(`connect_over_cdp('${copied}')`);

    // The session survived its clients' disconnects.
    const status = await page.request.get(`/computers/${id}/status`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await status.json()) as { status: string }).status).toMatch(/^(ready|running)$/);

    await page.setViewportSize({ width: 390, height: 844 });
    await panel.getByRole("button", { name: "Playwright" }).click();
    await expect(panel).toBeVisible();
    // Polled: the page lays out again after the resize (the live view measures its box in a ResizeObserver).
    await expect
      .poll(() => horizontalOverflow(page), { message: "horizontal overflow of Connect with Playwright at 390 px" })
      .toBeLessThanOrEqual(0);
    await saveScreenshot(page, testInfo, "session-tools-browser-390");

    expect((await page.request.delete(`/api/sessions/${id}`)).status()).toBe(204);
    await expect(page.getByTestId("cdp-unavailable")).toContainText("This session has ended");
  } finally {
    await context.close();
    await site.close();
  }
});
