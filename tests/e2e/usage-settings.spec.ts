// @needs browser-ui
// Usage and Settings in a real browser: session time from real sessions, the
// chart's tooltip by mouse and keyboard, the range in the URL, a CSV download;
// renaming the organization, then deleting it with the typed slug.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

async function atPhoneWidth(page: Page, shot: () => Promise<void>) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => horizontalOverflow(page), { message: "horizontal overflow at 390 px" })
    .toBeLessThanOrEqual(0);
  await shot();
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("usage shows session time, a chart with hover values and a CSV; settings rename and delete", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    baseURL: base(),
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await signUpNewTeam(page, "Usage");

  // Traffic to count: a key's model request and two overlapping browser sessions (one by key, one from the dashboard).
  const key = (await (await page.request.post("/api/keys", { data: { name: "e2e usage key" } })).json()).key as string;
  const auth = { authorization: `Bearer ${key}` };
  const chat = await page.request.post("/v1/chat/completions", {
    headers: auth,
    data: { model: "svc.sm-1", messages: [{ role: "user", content: "hello" }], max_tokens: 4, temperature: 0 },
  });
  expect(chat.status()).toBe(200);
  const byKey = await (await page.request.post("/computers", { headers: auth, data: { kind: "browser" } })).json();
  const byTeam = await (await page.request.post("/api/sessions", { data: { kind: "browser" } })).json();
  await expect
    .poll(async () => (await (await page.request.get("/api/usage")).json()).sessions.browser.minutes, {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(0.05);
  expect((await page.request.delete(`/computers/${byKey.id}`, { headers: auth })).status()).toBe(204);
  expect((await page.request.delete(`/api/sessions/${byTeam.id}`)).status()).toBe(204);

  await page.getByRole("link", { name: "Usage" }).first().click();
  await expect(page.getByTestId("usage-browser-minutes")).not.toContainText(/^Browser time0 min/);
  await expect(page.getByTestId("usage-browser-live")).toContainText("peak 2 at once");
  await expect(page.getByTestId("usage-by-key")).toContainText("e2e usage key");
  await expect(page.getByTestId("usage-by-key")).toContainText("Dashboard");

  // The chart: hover the last day's bar, then step with the keyboard.
  await page.getByRole("group", { name: "Chart metric" }).getByRole("button", { name: "Session minutes" }).click();
  await page.getByTestId("usage-chart-bar").last().hover();
  const tooltip = page.getByTestId("usage-chart-tooltip");
  await expect(tooltip).toContainText(/Browser: [\d.]+ min/);
  await expect(tooltip).toContainText(
    new Date().toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" }),
  );
  await page.getByRole("group", { name: /per day; arrow keys/ }).focus();
  await page.keyboard.press("Home");
  await expect(tooltip).toContainText("Browser: 0 min");

  // The range is in the URL.
  await page.getByRole("group", { name: "Date range" }).getByRole("button", { name: "24 h" }).click();
  await expect(page).toHaveURL(/\/usage\?range=24h$/);
  await expect(page.getByRole("heading", { name: "Per hour" })).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    /^cabin-usage-usage-s-team-[a-z0-9]+-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(csv[0]).toBe("date,line_type,name,requests,input_tokens,output_tokens,cost_usd,session_minutes");
  expect(csv.some((l) => l.includes(",model,svc.sm-1,1,"))).toBe(true);
  expect(csv.some((l) => l.includes(",session,browser,"))).toBe(true);

  await page.goto("/usage?range=30d");
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  await saveScreenshot(page, testInfo, "usage-1280");
  await atPhoneWidth(page, async () => {
    // The tables are wider than a phone: each says it scrolls sideways (Cost started off-screen unannounced).
    await expect(page.getByTestId("usage-scroll-hint").first()).toBeVisible();
    await saveScreenshot(page, testInfo, "usage-390");
  });
  await expect(page.getByTestId("usage-scroll-hint").first()).toBeHidden();

  // Settings: the rename persists.
  await page.goto("/settings");
  await expect(page.getByTestId("fact-max-lifetime")).toBeVisible();
  await page.getByLabel("Organization name").fill("Renamed by e2e");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Organization name")).toHaveValue("Renamed by e2e");
  await expect(page.getByLabel("Organization", { exact: true }).locator("option:checked")).toHaveText("Renamed by e2e");
  const slug = await page.getByLabel("Slug").inputValue();
  await saveScreenshot(page, testInfo, "settings-1280");
  await atPhoneWidth(page, () => saveScreenshot(page, testInfo, "settings-390"));

  // Delete needs the slug typed; then the person lands on "create a team".
  const remove = page.getByRole("button", { name: "Delete organization" });
  await expect(remove).toBeDisabled();
  await page.getByLabel(`Type ${slug} to confirm`).fill(slug);
  await remove.click();
  await expect(page).toHaveURL(/\/create-team$/);
  await expect(page.getByTestId("create-team")).toBeVisible();
  expect((await page.request.get("/v1/models", { headers: auth })).status()).toBe(401);
  await context.close();
});
