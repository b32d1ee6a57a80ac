// @needs browser-ui
// The dashboard on a 390 px phone: one header row naming the current page, a
// drawer that reaches every navigation item, and no page wider than the screen.
import { expect, test } from "@playwright/test";
import { NAV_ITEMS } from "../../components/shell/nav-items";
import { base, horizontalOverflow, signUpNewTeam } from "./dashboard-helpers";

test("at 390 px every navigation item is reachable and no page overflows sideways", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Phone");
  // A key makes the keys list non-empty: its table was what widened the page.
  expect(
    (await page.request.post("/api/keys", { data: { name: "a phone key with a rather long name" } })).status(),
  ).toBe(201);

  const menu = page.getByRole("button", { name: "Menu" });
  for (const item of NAV_ITEMS) {
    await menu.click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeInViewport();
    await nav.getByRole("link", { name: item.label }).click();
    await expect(page).toHaveURL(new RegExp(`${item.href}$`));
    await expect(page.getByTestId("current-page")).toHaveText(item.label);
    await expect(nav).toBeHidden();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Polled: the settled layout counts, not a frame in the middle of the client-side navigation.
    await expect
      .poll(() => horizontalOverflow(page), { message: `horizontal overflow on ${item.href}` })
      .toBeLessThanOrEqual(0);
  }
  // The drawer closes with Escape, and the one header row stays one row.
  await menu.click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  const header = await page.getByRole("banner").boundingBox();
  expect(header!.height).toBeLessThan(64);
  await context.close();
});
