// @needs browser-ui
// The app shell holds its places while its data loads: opening a page after login moves
// nothing under the reader's eyes (the organization selector used to push the navigation
// down as it arrived). Measured as Chromium reports it: the sum of layout-shift entries.
import { expect, test } from "@playwright/test";
import { base, signUpNewTeam } from "./dashboard-helpers";

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`opening the app after login shifts no layout at ${viewport.width} px`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: base(), viewport });
    await context.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { __shifts: number[] }).__shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!entry.hadRecentInput) shifts.push(entry.value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    const page = await context.newPage();
    await signUpNewTeam(page, "Steady");
    for (const path of ["/sessions", "/keys", "/usage"]) {
      await page.goto(path);
      await expect(page.locator("#main")).toBeVisible();
      // Everything the shell loads has arrived: the selector (wide) and the signed-in user.
      if (viewport.width >= 768) await expect(page.getByLabel("Organization")).toBeVisible();
      await expect(page.getByTestId("current-user")).toBeAttached();
      await page.waitForLoadState("networkidle");
      const total = await page.evaluate(() =>
        (window as unknown as { __shifts: number[] }).__shifts.reduce((a, b) => a + b, 0),
      );
      console.log(`[layout] ${path} at ${viewport.width} px: cumulative layout shift ${total.toFixed(4)}`);
      expect(total, `${path} at ${viewport.width} px`).toBeLessThan(0.01);
    }
    await context.close();
  });
}
