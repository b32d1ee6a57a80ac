// @needs browser-ui desktop
// The session page (/sessions/{id}) in a real browser against the real server
// and Chromium: live frames on the canvas, take control and click a button of
// a page this test serves (the page records the click in its title), open,
// switch and close tabs (the last one refused, with the reason), stop → why
// it ended; and a desktop whose terminal receives what is typed into the viewer.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createServer } from "node:http";
import { listenOnLoopback, type LoopbackServer } from "../api/loopback";
import { horizontalOverflow, isClipped, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

// A big button in the top-left corner that counts clicks into the title, and a spinning square (so frames keep coming).
const CLICK_PAGE =
  `<!doctype html><title>clicks: 0</title>
<style>body{margin:0;font-family:sans-serif}#go{position:absolute;left:0;top:0;width:400px;height:300px;font-size:40px}
#spin{position:absolute;left:600px;top:150px;width:160px;height:160px;background:#2563eb;animation:spin 1s ` +
  `linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}</style>
<button id="go" onclick="document.title='clicks: '+(++window.clicks)">Click me</button><div id="spin"></div>
<script>window.clicks=0</script>`;

let site: LoopbackServer;
test.beforeAll(async () => {
  site = await listenOnLoopback(
    createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(CLICK_PAGE)),
  );
});
test.afterAll(async () => site?.close());

const canvasImage = (canvas: Locator) => canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL("image/png"));
/** Alpha of the canvas's centre pixel: 0 until a first frame is drawn. */
const centreAlpha = (canvas: Locator) =>
  canvas.evaluate(
    (c: HTMLCanvasElement) => c.getContext("2d")!.getImageData(c.width >> 1, c.height >> 1, 1, 1).data[3],
  );

/** Clicks the canvas at a point given in frame (session) pixels. */
async function clickFramePoint(page: Page, canvas: Locator, x: number, y: number) {
  const box = (await canvas.boundingBox())!;
  const frameWidth = await canvas.evaluate((c: HTMLCanvasElement) => c.width);
  const scale = box.width / frameWidth;
  await page.mouse.click(box.x + x * scale, box.y + y * scale);
}

async function createSession(page: Page, body: Record<string, unknown>): Promise<string> {
  const res = await page.request.post("/api/sessions", { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test("browser session: live frames, takeover click, tabs, last tab refused, stop", async ({ browser }, testInfo) => {
  const context = await browser.newContext({
    baseURL: process.env.CABIN_E2E_URL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await signUpNewTeam(page, "Viewer");
  const id = await createSession(page, { kind: "browser", context_id: "e2e-viewer" });

  // The list links to the page.
  await page.getByRole("link", { name: id }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await expect(page.getByTestId("session-id")).toHaveText(id);
  await expect(page.getByTestId("session-fields")).toContainText("e2e-viewer");
  const tabs = page.getByTestId("tab");
  await expect(tabs).toHaveCount(1);

  // Open a tab on the test page: it becomes the active tab, and the viewer follows it.
  await page.getByRole("button", { name: "Open a new tab" }).click();
  await page.getByLabel("URL of the new tab").fill(site.url);
  await page.getByRole("button", { name: "Open tab" }).click();
  await expect(tabs).toHaveCount(2);
  await expect(tabs.filter({ hasText: "clicks: 0" })).toHaveAttribute("data-active", "true");
  const clickTabId = (await tabs.filter({ hasText: "clicks: 0" }).getAttribute("data-tab-id"))!;
  const clickTab = page.locator(`[data-testid="tab"][data-tab-id="${clickTabId}"]`);
  const listed = (await (await page.request.get(`/api/sessions/${id}/tabs`)).json()) as {
    result: { tabs: { tab_id: string; is_main: boolean }[] };
  };
  expect(listed.result.tabs.find((t) => t.is_main)?.tab_id).toBe(clickTabId);

  // Live frames: the canvas is drawn, and changes over time (the square spins).
  const canvas = page.getByTestId("live-canvas");
  await expect(page.getByTestId("viewer-state")).toHaveAttribute("data-state", "live");
  await expect.poll(() => centreAlpha(canvas)).toBe(255);
  const first = await canvasImage(canvas);
  await expect.poll(() => canvasImage(canvas)).not.toBe(first);

  // Read-only until taken over: a click now does nothing to the page.
  await clickFramePoint(page, canvas, 200, 150);
  await page.getByRole("button", { name: "Take control" }).click();
  await expect(page.getByTestId("control-banner")).toContainText("You are in control");
  await expect(canvas).toHaveAttribute("data-controlling", "true");
  await clickFramePoint(page, canvas, 200, 150);
  // The test page counted the click; the tab strip reads its title.
  await expect(clickTab).toContainText("clicks: 1");
  await expect(page.getByTestId("idle-countdown")).toBeVisible();

  await saveScreenshot(page, testInfo, "session-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(canvas).toBeVisible();
  // Polled: the page lays out again after the resize (the live view measures its box in a ResizeObserver).
  await expect
    .poll(() => horizontalOverflow(page), { message: "horizontal overflow on the session page at 390 px" })
    .toBeLessThanOrEqual(0);
  expect((await canvas.boundingBox())!.width).toBeLessThanOrEqual(390);
  // The banner says the whole sentence on a phone (it was cut to "You a…").
  await expect.poll(() => isClipped(page.getByTestId("control-banner"))).toBe(false);
  await saveScreenshot(page, testInfo, "session-390");
  // Release and take control again: the two status lines have one height, so the screen stays put.
  const canvasTop = () => canvas.evaluate((c) => c.getBoundingClientRect().top + window.scrollY);
  const inControl = await canvasTop();
  await page.getByRole("button", { name: "Release" }).click();
  await expect(page.getByTestId("viewer-note")).toBeVisible();
  expect(await canvasTop()).toBeCloseTo(inControl, 0);
  await page.getByRole("button", { name: "Take control" }).click();
  await expect(page.getByTestId("control-banner")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });

  // Esc releases control.
  await canvas.focus();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("control-banner")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Take control" })).toBeVisible();

  // Switch to the first tab, then close the test page's tab.
  const blankTab = tabs.filter({ hasNotText: "clicks:" });
  await blankTab.getByRole("button").first().click();
  await expect(blankTab).toHaveAttribute("data-active", "true");
  await expect(clickTab).toHaveAttribute("data-active", "false");
  // Seconds (and several polls) later the page still counts one click: the read-only click was never sent.
  await expect(clickTab).toContainText("clicks: 1");
  await clickTab.getByRole("button", { name: /^Close tab/ }).click();
  await expect(tabs).toHaveCount(1);

  // The last tab cannot be closed: its × is disabled with the reason shown, and the server refuses too.
  await expect(tabs.getByRole("button", { name: /^Close tab/ })).toBeDisabled();
  await expect(page.getByTestId("last-tab-reason")).toContainText("last tab cannot be closed");
  const lastId = (await tabs.getAttribute("data-tab-id"))!;
  const refused = await page.request.delete(`/api/sessions/${id}/tabs/${lastId}`);
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("last open tab");
  expect((await page.request.delete(`/api/sessions/${id}/tabs/${clickTabId}`)).status()).toBe(404);

  // Stop (confirmed): the page shows why the session ended instead of the viewer.
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await page.getByRole("button", { name: "Stop session" }).click();
  await expect(page.getByTestId("session-ended-reason")).toHaveAttribute("data-reason", "deleted");
  await expect(page.getByTestId("session-ended-reason")).toContainText("It was stopped");
  await expect(page.getByTestId("session-status")).toHaveText("ended: stopped");
  await expect(canvas).toHaveCount(0);

  // Another organization's id is a 404 in the JSON envelope, and the page says "not found".
  const other = await browser.newContext({ baseURL: process.env.CABIN_E2E_URL });
  const stranger = await other.newPage();
  await signUpNewTeam(stranger, "Stranger");
  const foreign = await stranger.request.get(`/api/sessions/${id}`);
  expect(foreign.status()).toBe(404);
  expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("not_found");
  const foreignPage = await stranger.goto(`/sessions/${id}`);
  expect(foreignPage?.status()).toBe(404);
  await expect(stranger.getByTestId("page-problem")).toBeVisible();
  await other.close();
  await context.close();
});

test("desktop session: frames, and typing into the viewer reaches the terminal", async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: process.env.CABIN_E2E_URL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await signUpNewTeam(page, "Desktop");
  const options = (await (await page.request.get("/api/sessions/options")).json()) as { kinds: string[] };
  test.skip(!options.kinds.includes("desktop"), "desktops are not available on this server");

  const id = await createSession(page, { kind: "desktop" });
  await page.goto(`/sessions/${id}`);
  await expect(page.getByTestId("tab-strip")).toHaveCount(0);
  const canvas = page.getByTestId("live-canvas");
  await expect(page.getByTestId("viewer-state")).toHaveAttribute("data-state", "live");
  await expect.poll(() => centreAlpha(canvas), { timeout: 30_000 }).toBe(255);

  await page.getByRole("button", { name: "Take control" }).click();
  await expect(canvas).toBeFocused();
  await page.keyboard.type("echo typed > /tmp/typed.txt");
  await page.keyboard.press("Enter");

  const created = await page.request.post("/api/keys", { data: { name: "e2e desktop key" } });
  const { key } = (await created.json()) as { key: string };
  await expect
    .poll(
      async () => {
        const res = await page.request.post(`/computers/${id}/exec/sync`, {
          headers: { authorization: `Bearer ${key}` },
          data: { command: "cat /tmp/typed.txt 2>/dev/null" },
        });
        return ((await res.json()) as { stdout?: string }).stdout?.trim();
      },
      { timeout: 20_000 },
    )
    .toBe("typed");

  expect((await page.request.delete(`/api/sessions/${id}`)).status()).toBe(204);
  await expect(page.getByTestId("session-ended-reason")).toHaveAttribute("data-reason", "deleted");
  await context.close();
});
