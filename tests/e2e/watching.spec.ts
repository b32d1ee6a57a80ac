// @needs browser-ui
// The dashboard a person works in (docs/watching-sessions.md), in real Chromium at
// 1280×800 and 390×844: watching keeps a session alive, the screen fills its column
// and the window in fullscreen, a refused navigation says so, Stop on the list asks
// (a double-click ends nothing), the list comes first, the Playground's Stop stays in
// view while it streams, a member is not offered Revoke on the owner's key, and the
// timeline shows what happened before the page was opened.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { base, E2E_PASSWORD, inviteLink, saveScreenshot, signUpNewTeam, unique } from "./dashboard-helpers";

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function newKey(page: Page): Promise<string> {
  const created = await page.request.post("/api/keys", { data: { name: `watch ${unique()}` } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { key: string }).key;
}

async function startSession(
  request: APIRequestContext,
  key: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await request.post("/computers", {
    headers: { authorization: `Bearer ${key}` },
    data: { kind: "browser", ...body },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function statusOf(
  request: APIRequestContext,
  key: string,
  id: string,
): Promise<{ status: string; termination_reason: string | null }> {
  return (await (await request.get(`/computers/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    status: string;
    termination_reason: string | null;
  };
}

test("a watched session with a 20 s idle timeout outlives 40 s; an unwatched one idles out", async ({ browser }) => {
  // By nature a wait: 40 s of watching, plus sign-up and start-up.
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: base(), viewport: LAPTOP });
  const page = await context.newPage();
  await signUpNewTeam(page, "Watcher");
  const key = await newKey(page);
  const watched = await startSession(page.request, key, { inactivity_timeout_seconds: 20, context_id: "watched" });
  const unwatched = await startSession(page.request, key, { inactivity_timeout_seconds: 20, context_id: "unwatched" });
  const startedAt = Date.now();

  await page.goto(`/sessions/${watched}`);
  await expect(page.getByTestId("viewer-state")).toHaveAttribute("data-state", "live");
  // A 20 s idle deadline is always under 30 s: the countdown is coloured (amber, or red under 10 s).
  await expect(page.getByTestId("idle-countdown")).toHaveAttribute("data-urgency", /^(soon|now)$/);
  // A second tab on the list (it sends no keep-alive) shows the unwatched one ended, in words.
  const list = await context.newPage();
  await list.goto("/sessions");
  const unwatchedRow = list.getByTestId("session-row").filter({ hasText: "unwatched" });
  await expect(unwatchedRow.getByTestId("session-status")).toHaveText("ended: idle timeout", { timeout: 40_000 });
  expect(await statusOf(page.request, key, unwatched)).toMatchObject({
    status: "terminated",
    termination_reason: "inactivity",
  });

  // 40 s after the start, twice the idle timeout, the watched one still runs.
  await expect
    .poll(() => Date.now() - startedAt, { timeout: 60_000, intervals: [1_000] })
    .toBeGreaterThanOrEqual(40_000);
  expect((await statusOf(page.request, key, watched)).status).not.toBe("terminated");
  await expect(page.getByTestId("viewer-state")).toHaveAttribute("data-state", "live");
  await context.close();
});

test("the screen fills its column, fullscreen fills the window, and a refused navigation says why", async ({
  browser,
}, testInfo) => {
  // Sign-up, a browser session, live frames and two tab openings: over a minute on a busy machine.
  test.setTimeout(150_000);
  const context = await browser.newContext({ baseURL: base(), viewport: LAPTOP });
  const page = await context.newPage();
  await signUpNewTeam(page, "Screen");
  const key = await newKey(page);
  const id = await startSession(page.request, key, { context_id: "screen" });
  await page.goto(`/sessions/${id}`);
  const canvas = page.getByTestId("live-canvas");
  await expect(page.getByTestId("viewer-state")).toHaveAttribute("data-state", "live");

  const drawnShare = () =>
    page.evaluate(() => {
      const main = document.getElementById("main")!;
      const style = getComputedStyle(main);
      const column = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return document.querySelector('[data-testid="live-canvas"]')!.getBoundingClientRect().width / column;
    });
  await expect.poll(drawnShare).toBeGreaterThanOrEqual(0.9);
  await saveScreenshot(page, testInfo, "session-live-1280");

  // Taking control keeps the screen where it was: the banner takes the status line's place.
  // (Measured in the page, not the window: taking control focuses the screen, which may scroll it into view.)
  const canvasTop = () => canvas.evaluate((c) => c.getBoundingClientRect().top + window.scrollY);
  const before = await canvasTop();
  await page.getByRole("button", { name: "Take control" }).click();
  await expect(page.getByTestId("control-banner")).toBeVisible();
  expect(await canvasTop()).toBeCloseTo(before, 0);
  await page.getByRole("button", { name: "Release" }).click();

  await page.getByRole("button", { name: "Fullscreen" }).click();
  await expect
    .poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute("data-testid") ?? null))
    .toBe("live-viewer");
  await expect
    .poll(async () => {
      const box = (await canvas.boundingBox())!;
      return Math.max(box.width / LAPTOP.width, box.height / LAPTOP.height);
    })
    .toBeGreaterThanOrEqual(0.9);
  await page.getByRole("button", { name: "Exit fullscreen" }).click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);

  // 1:1 draws one frame pixel per device pixel.
  await page.getByRole("button", { name: "1:1" }).click();
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeCloseTo(1280, 0);
  await page.getByRole("button", { name: "Fit" }).click();

  // A tab at this server's own address: the egress policy refuses it, and the page says so next to the tabs.
  await page.getByRole("button", { name: "Open a new tab" }).click();
  await page.getByLabel("URL of the new tab").fill("data:text/html,hi");
  await page.getByRole("button", { name: "Open tab" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Only http:// and https://" })).toBeVisible();
  // The field keeps its width while it shows the problem.
  expect((await page.getByLabel("URL of the new tab").boundingBox())!.width).toBeGreaterThan(200);
  await page.getByLabel("URL of the new tab").fill(`${base()}/sessions`);
  await page.getByRole("button", { name: "Open tab" }).click();
  const problem = page.getByTestId("navigation-problem");
  await expect(problem).toBeVisible();
  await expect(problem).toContainText("Refused by the egress policy");
  await expect(problem).toContainText("blocked by the session egress policy");
  await expect(problem).toContainText("SESSION_EGRESS_ALLOW");

  await page.setViewportSize(PHONE);
  await expect.poll(drawnShare).toBeGreaterThanOrEqual(0.9);
  await saveScreenshot(page, testInfo, "session-live-390");
  await context.close();
});

test("the list comes first at both sizes, and a double-click on Stop ends no session", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: base(), viewport: LAPTOP });
  const page = await context.newPage();
  await signUpNewTeam(page, "Lister");
  const key = await newKey(page);
  const first = await startSession(page.request, key, { context_id: "list-a" });
  const second = await startSession(page.request, key, { context_id: "list-b" });
  await page.goto("/sessions");
  for (const size of [LAPTOP, PHONE]) {
    await page.setViewportSize(size);
    const row = page.getByTestId("session-row").first();
    await expect(row).toBeVisible();
    const box = (await row.boundingBox())!;
    expect(box.y + Math.min(box.height, 80), `first row at ${size.width}`).toBeLessThanOrEqual(size.height);
  }
  await saveScreenshot(page, testInfo, "sessions-list-390");
  await page.setViewportSize(LAPTOP);

  const row = page.getByTestId("session-row").filter({ hasText: "list-a" });
  await row.getByRole("button", { name: "Stop" }).dblclick();
  // Each row holds its own (closed, hidden) dialog: the open one is the only visible dialog.
  const dialog = page.getByRole("dialog", { name: "Stop this session?" });
  await expect(dialog).toBeVisible();
  await saveScreenshot(page, testInfo, "sessions-confirm-1280");
  expect((await statusOf(page.request, key, first)).status).not.toBe("terminated");
  expect((await statusOf(page.request, key, second)).status).not.toBe("terminated");
  await dialog.getByRole("button", { name: "Stop session" }).click();
  await expect(row.getByTestId("session-status")).toHaveText("ended: stopped");
  expect((await statusOf(page.request, key, second)).status).not.toBe("terminated");

  // New session opens a dialog with the form.
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByRole("dialog", { name: "New session" }).getByLabel("Idle timeout (seconds)")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "New session" })).toBeHidden();
  await context.close();
});

test("the timeline shows what happened before the page was opened", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base(), viewport: LAPTOP });
  const page = await context.newPage();
  await signUpNewTeam(page, "Historian");
  const key = await newKey(page);
  const id = await startSession(page.request, key, { context_id: "history" });
  const done = await page.request.post(`/computers/${id}/execute`, {
    headers: { authorization: `Bearer ${key}` },
    data: { action: { type: "wait", ms: 5 } },
  });
  expect(done.status()).toBe(200);
  const requestId = ((await done.json()) as { request_id: string }).request_id;
  await page.goto(`/sessions/${id}`);
  const entry = page.locator(`[data-testid="timeline-action"][data-request-id="${requestId}"]`);
  await expect(entry).toContainText("wait");
  await expect(entry).toContainText(/success/);
  await context.close();
});

test("a member is not offered Revoke on the owner's key", async ({ browser }) => {
  const ownerContext = await browser.newContext({ baseURL: base(), viewport: LAPTOP });
  const owner = await ownerContext.newPage();
  await signUpNewTeam(owner, "Keeper");
  await owner.request.post("/api/keys", { data: { name: "owner key" } });
  await owner.goto("/members");
  const inviteeEmail = `mem${unique()}@example.test`;
  const link = await inviteLink(owner, inviteeEmail);

  const memberContext = await browser.newContext({ baseURL: base(), viewport: PHONE });
  const member = await memberContext.newPage();
  await member.goto(link);
  await member.getByRole("link", { name: "Sign up" }).click();
  await member.getByLabel("Name").fill("Mem");
  await member.getByLabel("Password").fill(E2E_PASSWORD);
  await member.getByRole("button", { name: "Sign up" }).click();
  await expect(member).toHaveURL(/\/sessions$/);
  await member.request.post("/api/keys", { data: { name: "member key" } });
  await member.goto("/keys");
  await expect(
    member.getByTestId("key-row").filter({ hasText: "member key" }).getByRole("button", { name: "Revoke" }),
  ).toBeVisible();
  await expect(member.getByTestId("key-row").filter({ hasText: "owner key" })).toBeVisible();
  await expect(
    member.getByTestId("key-row").filter({ hasText: "owner key" }).getByRole("button", { name: "Revoke" }),
  ).toHaveCount(0);
  await ownerContext.close();
  await memberContext.close();
});

test("the Playground's Stop stays in view while 1,000 tokens stream, and View code opens beside the chat", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ baseURL: base(), viewport: LAPTOP });
  const page = await context.newPage();
  await signUpNewTeam(page, "Streamer");
  await page.goto("/playground");
  await page.getByLabel("Max tokens").fill("1000");
  const box = page.getByLabel("Message", { exact: true });
  await box.fill("Tell me a long story.");
  await box.scrollIntoViewIfNeeded();
  // Every render while the answer streams: is Stop inside the window?
  await page.evaluate(() => {
    const state = { renders: 0, outside: 0 };
    (window as unknown as { __stop: typeof state }).__stop = state;
    const chat = document.querySelector('[data-testid="playground-chat"]')!;
    new MutationObserver(() => {
      const stop = [...chat.querySelectorAll("button")].find((b) => b.textContent === "Stop");
      if (!stop) return;
      state.renders++;
      const r = stop.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) state.outside++;
    }).observe(chat, { subtree: true, childList: true, characterData: true });
  });
  await box.press("Enter");
  await expect(page.getByTestId("playground-chat")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  const seen = await page.evaluate(
    () => (window as unknown as { __stop: { renders: number; outside: number } }).__stop,
  );
  expect(seen.renders).toBeGreaterThan(3);
  expect(seen.outside).toBe(0);
  await page.getByRole("button", { name: "View code" }).click();
  const code = page.getByTestId("playground-code");
  await expect(code).toBeVisible();
  expect((await code.boundingBox())!.y).toBeLessThan(LAPTOP.height * 1.5);
  await context.close();
});
