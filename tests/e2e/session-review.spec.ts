// @needs browser-ui
// The session page around its screen, in a real browser against the real server and
// Chromium, at 1280 and 390 px: Back and Forward in the address field go through the
// current tab's history (by keyboard), and once the session ends its page keeps the
// last screen (taken as it ended) above the timeline of what happened in it.
import { expect, test } from "@playwright/test";
import { createServer } from "node:http";
import { listenOnLoopback, type LoopbackServer } from "../api/loopback";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

// Two pages on loopback (the e2e server's egress policy allows 127.0.0.0/8 but not the server itself).
let site: LoopbackServer;
test.beforeAll(async () => {
  site = await listenOnLoopback(
    createServer((req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><title>page ${req.url?.slice(1)}</title><body style="font:64px ` +
            `sans-serif;background:#fef3c7"><h1>Page ${req.url}</h1>`,
        ),
    ),
  );
});
test.afterAll(async () => site?.close());

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`Back and Forward, then the ended session's last screen and timeline at ${viewport.width} px`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: base(), viewport });
    const page = await context.newPage();
    await signUpNewTeam(page, `Review${viewport.width}`);
    const created = await page.request.post("/api/sessions", { data: { kind: "browser" } });
    expect(created.status()).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    await page.goto(`/sessions/${id}`);
    await expect(page.getByTestId("viewer-state")).toHaveAttribute("data-state", "live");

    const address = page.getByRole("textbox", { name: "Address of the current tab" });
    const tab = page.getByTestId("tab").first();
    await address.fill(`${site.url}/a`);
    await address.press("Enter");
    await expect(tab).toContainText("page a");
    await address.fill(`${site.url}/b`);
    await address.press("Enter");
    await expect(tab).toContainText("page b");
    await expect(address).toHaveValue(`${site.url}/b`);

    // Back by keyboard: focus the button, press Enter. The tab and the field show page A again.
    await page.getByRole("button", { name: "Back", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(tab).toContainText("page a");
    await expect(address).toHaveValue(`${site.url}/a`);
    await expect(page.getByTestId("tab")).toHaveCount(1);
    await page.getByRole("button", { name: "Forward", exact: true }).click();
    await expect(tab).toContainText("page b");
    await expect(address).toHaveValue(`${site.url}/b`);
    await expect(page.getByTestId("navigation-problem")).toHaveCount(0);
    expect(await horizontalOverflow(page)).toBe(0);

    // Stop: the page keeps the screen as it ended (page B), and the timeline of what ran.
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await page.getByRole("button", { name: "Stop session" }).click();
    await expect(page.getByTestId("session-ended-reason")).toHaveAttribute("data-reason", "deleted");
    const shot = page.getByTestId("final-screenshot").locator("img");
    await expect(shot).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
    const timeline = page.getByTestId("event-timeline");
    await expect(
      timeline
        .getByTestId("timeline-action")
        .filter({ hasText: `go_to_url ${site.url}/b` })
        .first(),
    ).toBeVisible();

    // Its time reads as the page's other times do ("Dec 2, 2026, 5:19 AM"), not "12/2/2026, 5:19:30 AM".
    await expect(page.getByTestId("final-screenshot")).not.toContainText(/\d+\/\d+\/\d{4}/);
    // Its timeline's stream is over by design: "ended", not "not connected"; no files will come.
    await expect(page.getByTestId("timeline-state")).toHaveText("ended");
    await expect(page.getByTestId("files-empty")).toHaveText(
      "No files: nothing was uploaded or downloaded in this session.",
    );

    // A fresh visit of the ended session shows the same.
    await page.reload();
    await expect(page.getByTestId("timeline-state")).toHaveText("ended");
    await expect(page.getByTestId("final-screenshot").locator("img")).toBeVisible();
    await expect(page.getByTestId("event-timeline").getByTestId("timeline-action").first()).toBeVisible();
    await expect.poll(() => horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `session-ended-${viewport.width}`);
    await context.close();
  });
}
