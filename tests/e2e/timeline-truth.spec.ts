// @needs browser-ui
// The session timeline tells the truth, in a real browser against the real
// server (docs/watching-sessions.md): a refused navigation is an error with its
// reason, a person's input under Take control shows up, and the session list
// hears of a new or ended session from the server's push (the time it took is
// printed, not asserted: docs/development.md).
import { expect, test, type Page } from "@playwright/test";
import { createServer } from "node:http";
import { listenOnLoopback, type LoopbackServer } from "../api/loopback";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam, unique } from "./dashboard-helpers";

// Two pages on loopback (the e2e server's egress policy allows 127.0.0.0/8 but not the server itself).
let site: LoopbackServer;
test.beforeAll(async () => {
  site = await listenOnLoopback(
    createServer((req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><title>page ${req.url?.slice(1)}</title><h1>${req.url}</h1>`),
    ),
  );
});
test.afterAll(async () => site?.close());

async function newKey(page: Page): Promise<string> {
  const created = await page.request.post("/api/keys", { data: { name: `truth ${unique()}` } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { key: string }).key;
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`the timeline shows a refused navigation in red and the input of Take control at ${viewport.width} px`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: base(), viewport });
    const page = await context.newPage();
    await signUpNewTeam(page, `Truth${viewport.width}`);
    const created = await page.request.post("/api/sessions", { data: { kind: "browser" } });
    expect(created.status()).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    await page.goto(`/sessions/${id}`);
    await expect(page.getByTestId("viewer-state")).toHaveAttribute("data-state", "live");
    const timeline = page.getByTestId("event-timeline");
    await expect(page.getByTestId("timeline-state")).toHaveAttribute("data-state", "open");

    // The address field loads a URL in the current tab: still one tab, now showing that page.
    const address = page.getByRole("textbox", { name: "Address of the current tab" });
    await address.fill(`${site.url}/a`);
    await address.press("Enter");
    await expect(page.getByTestId("tab")).toHaveCount(1);
    await expect(page.getByTestId("tab").first()).toContainText("page a");
    await expect(address).toHaveValue(`${site.url}/a`);
    await address.fill(`${site.url}/b`);
    await address.press("Enter");
    await expect(page.getByTestId("tab").first()).toContainText("page b");
    await page.getByRole("button", { name: "Reload the current tab" }).click();
    await expect(page.getByTestId("tab")).toHaveCount(1);
    await expect(page.getByTestId("tab").first()).toContainText("page b");
    await expect(page.getByTestId("navigation-problem")).toHaveCount(0);
    const loaded = timeline.getByTestId("timeline-action").filter({ hasText: `go_to_url ${site.url}/b` });
    await expect(loaded.first()).toHaveAttribute("data-status", "success");

    // A tab at this server's own address is refused by the egress policy: the timeline says so, with why.
    await page.getByRole("button", { name: "Open a new tab" }).click();
    await page.getByLabel("URL of the new tab").fill(`${base()}/sessions`);
    await page.getByRole("button", { name: "Open tab" }).click();
    await expect(page.getByTestId("navigation-problem")).toBeVisible();
    const refused = timeline.getByTestId("timeline-action").filter({ hasText: "new_tab" });
    await expect(refused).toHaveAttribute("data-status", "error");
    await expect(refused).toContainText("blocked by the session egress policy");

    // What a person does under Take control: a click and typing, typed keys as one entry.
    await page.getByRole("button", { name: "Take control" }).click();
    await expect(page.getByTestId("control-banner")).toBeVisible();
    const canvas = page.getByTestId("live-canvas");
    await canvas.click({ position: { x: 20, y: 20 } });
    await page.keyboard.type("abc");
    await expect(timeline.getByTestId("timeline-input").filter({ hasText: /click at \(\d+, \d+\)/ })).toHaveCount(1);
    await expect(timeline.getByTestId("timeline-input").filter({ hasText: "typed “abc”" })).toHaveCount(1);
    await page.keyboard.press("Escape");

    // After a reload the replayed history keeps each event's own time, not the time of the reload.
    const reloadedAt = Date.now();
    await page.reload();
    const replayed = page.getByTestId("event-timeline").getByTestId("timeline-input").first();
    await expect(replayed).toBeVisible();
    const at = Date.parse((await replayed.locator("time").getAttribute("datetime"))!);
    expect(at).toBeLessThan(reloadedAt);
    expect(await horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `timeline-${viewport.width}`);

    // Once the session has ended, its page still shows the whole timeline, and how it ended.
    expect((await page.request.delete(`/api/sessions/${id}`)).status()).toBe(204);
    await page.reload();
    const review = page.getByTestId("event-timeline");
    await expect(review.getByTestId("timeline-ended")).toContainText("Session ended");
    await expect(review.getByTestId("timeline-action").filter({ hasText: "new_tab" })).toHaveAttribute(
      "data-status",
      "error",
    );
    await expect(review.getByTestId("timeline-input").filter({ hasText: "typed “abc”" })).toHaveCount(1);
    await context.close();
  });
}

test("the session list hears of a new and an ended session from the server's push", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Pushed");
  const key = await newKey(page);
  await expect(page.getByTestId("sessions-empty")).toBeVisible();
  // The empty state points to the New session button (the form "above" it is gone).
  await expect(page.getByTestId("sessions-empty")).toContainText("Start one with New session at the top of this page");
  await expect(page.getByTestId("sessions-empty")).not.toContainText("form above");

  // Listen to the same push the list uses, and time from the API's answer to the `changed` event.
  const heard = () =>
    page.evaluate(
      () =>
        new Promise<void>((ready) => {
          const source = new EventSource("/api/sessions/changes");
          const w = window as unknown as { __changed: Promise<number> };
          w.__changed = new Promise<number>((changed) => {
            source.addEventListener("changed", () => {
              changed(performance.now());
              source.close();
            });
          });
          source.addEventListener("ready", () => ready());
        }),
    );
  const changedAt = () => page.evaluate(() => (window as unknown as { __changed: Promise<number> }).__changed);

  await heard();
  const startedAt = await page.evaluate(() => performance.now());
  const started = await page.request.post("/computers", {
    headers: { authorization: `Bearer ${key}` },
    data: { kind: "browser" },
  });
  expect(started.status()).toBe(200);
  const answeredAt = await page.evaluate(() => performance.now());
  const id = ((await started.json()) as { id: string }).id;
  const pushedNew = (await changedAt()) - answeredAt;
  await expect(page.locator(`[data-session-id="${id}"]`)).toBeVisible();

  await heard();
  const stopped = await page.request.delete(`/computers/${id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(stopped.status()).toBeLessThan(300);
  const stoppedAt = await page.evaluate(() => performance.now());
  const pushedEnd = (await changedAt()) - stoppedAt;
  await expect(page.locator(`[data-session-id="${id}"]`).getByTestId("session-status")).toHaveText(/^ended/);
  console.log(
    `session list push: new session ${Math.round(pushedNew)} ms after the API answered (start took ` +
      `${Math.round(answeredAt - startedAt)} ms), ended ${Math.round(pushedEnd)} ms after`,
  );

  // A member who opens /create-team is told they have a team, not that they are in none.
  await page.goto("/create-team");
  await expect(page.getByTestId("create-team-member")).toContainText("You already belong to a team");
  await expect(page.getByText("You are not in any organization")).toHaveCount(0);

  // On a phone the keys table scrolls sideways, and Revoke stays in reach at its right edge.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/keys");
  await expect(page.getByTestId("keys-scroll-hint")).toBeVisible();
  await expect(page.getByTestId("key-row").first().getByRole("button", { name: "Revoke" })).toBeInViewport();
  expect(await horizontalOverflow(page)).toBe(0);
  await context.close();
});
