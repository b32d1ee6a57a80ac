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

/** Invites `email` from the Members page (open in `page`) and answers the invitation link it shows for them. */
export async function inviteLink(page: Page, email: string): Promise<string> {
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Invite" }).click();
  const row = page.getByTestId("invitation-row").filter({ hasText: email });
  return (await row.getByTestId("invitation-link").textContent())!.trim();
}

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

/**
 * The contrast ratio (WCAG 2) of an element's text against the first opaque background behind it.
 * Colours go through a canvas, which reads any CSS colour syntax (Tailwind's are oklch).
 */
export function textContrast(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const rgba = (css: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      return Array.from(context.getImageData(0, 0, 1, 1).data);
    };
    const luminance = ([r, g, b]: number[]) => {
      const f = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    let background = [255, 255, 255, 255];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const colour = rgba(getComputedStyle(node).backgroundColor);
      if (colour[3] === 255) {
        background = colour;
        break;
      }
    }
    const [light, dark] = [luminance(rgba(getComputedStyle(element).color)), luminance(background)].sort(
      (a, b) => b - a,
    );
    return (light + 0.05) / (dark + 0.05);
  });
}

/** How far the page is wider than the viewport (0 when nothing overflows sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
