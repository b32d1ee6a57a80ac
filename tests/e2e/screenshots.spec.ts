// @needs browser-ui
// Every dashboard page at 1280 and 390 px: saved to docs/screenshots (for the
// README and for review) and attached to the test report. At 390 px no page
// may be wider than the screen and every navigation item must be reachable
// through the drawer. Pages not in this build (404) are skipped, so merged
// pages join the loop by being listed here.
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { NAV_ITEMS } from "../../components/shell/nav-items";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam, unique } from "./dashboard-helpers";

const WIDTHS = [1280, 390] as const;
const SESSION_PAGE = path.resolve(import.meta.dirname, "../../app/(dashboard)/sessions/[id]/page.tsx");

/** [screenshot name, path]; the session page only when its route is in this tree. */
function pagesToShoot(sessionId: string | null): [string, string][] {
  const pages: [string, string][] = [
    ["sessions", "/sessions"],
    ["tasks-empty", "/tasks"],
    ["browser-profiles", "/browser-profiles"],
    ["vault", "/vault"],
    ["keys", "/keys"],
    ["members", "/members"],
    ["usage", "/usage"],
    ["playground", "/playground"],
    ["settings", "/settings"],
    ["api-reference", "/api-reference"],
  ];
  if (sessionId) pages.push(["session", `/sessions/${sessionId}`]);
  return pages;
}

async function expectEveryNavItemReachable(page: Page) {
  const menu = page.getByRole("button", { name: "Menu" });
  await menu.click();
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const item of NAV_ITEMS) await expect(nav.getByRole("link", { name: item.label })).toBeInViewport();
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
}

test("screenshots of every dashboard page at 1280 and 390 px", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: base(), viewport: { width: WIDTHS[0], height: 900 } });
  const page = await context.newPage();
  // What a visitor sees first: Log in and Sign up.
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const name of ["login", "sign-up"]) {
      await page.goto(`/${name}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect.poll(() => horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await saveScreenshot(page, testInfo, `${name}-${width}`);
    }
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  await signUpNewTeam(page, "Shots");
  // Starting another team: a page of the sign-in layout, with its own heading.
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto("/create-team");
    await expect(page.getByRole("heading", { level: 1, name: "Create a team" })).toBeVisible();
    await expect(page.getByTestId("create-team-member")).toBeVisible();
    await expect.poll(() => horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, testInfo, `create-team-${width}`);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  // Some content, so the pages show what they look like in use.
  expect(
    (await page.request.post("/api/keys", { data: { name: "ci pipeline key with a fairly long name" } })).status(),
  ).toBe(201);
  await page.goto("/members");
  await page.getByLabel("Email").fill(`teammate${unique()}@example.test`);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("invitation-row")).toHaveCount(1);
  let sessionId: string | null = null;
  if (existsSync(SESSION_PAGE)) {
    const created = await page.request.post("/api/sessions", { data: { kind: "browser" } });
    expect(created.status()).toBe(201);
    sessionId = ((await created.json()) as { id: string }).id;
  }

  try {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const [name, pagePath] of pagesToShoot(sessionId)) {
        const response = await page.goto(pagePath);
        if (response?.status() === 404) {
          testInfo.annotations.push({ type: "skipped page", description: `${pagePath} is not in this build` });
          continue;
        }
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await page.evaluate(() => document.fonts.ready);
        if (width === 390) {
          await expect
            .poll(() => horizontalOverflow(page), { message: `horizontal overflow on ${pagePath}` })
            .toBeLessThanOrEqual(0);
          await expectEveryNavItemReachable(page);
        }
        await saveScreenshot(page, testInfo, `${name}-${width}`);
      }
    }
  } finally {
    if (sessionId) await page.request.delete(`/api/sessions/${sessionId}`);
    await context.close();
  }
});
