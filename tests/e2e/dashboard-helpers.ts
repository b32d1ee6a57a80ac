// Shared steps of the dashboard's e2e specs.
import { expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import path from "node:path";

export const base = () => process.env.CABIN_E2E_URL!;
export const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

export const E2E_PASSWORD = "correct horse battery";

/** Signs up a new person (and with them a new organization), lands on /sessions, and returns their email. */
export async function signUpNewTeam(page: Page, name: string): Promise<string> {
  const email = `${name.toLowerCase()}${unique()}@example.test`;
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/sessions$/);
  return email;
}

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../docs/screenshots");

/**
 * A full-page screenshot kept in docs/screenshots (for the README) and attached to the test's report.
 * Taken from the top: scrolled, the shell's fixed header and sticky navigation would be drawn mid-page.
 */
export async function saveScreenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const body = await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
    animations: "disabled",
  });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

/** Whether an element cuts its own text (an ellipsis, or content past its box). */
export function isClipped(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight);
}

/** How far the page is wider than the viewport (0 when nothing overflows sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
