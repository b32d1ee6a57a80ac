// @needs browser-ui
// The Profiles page and the profile picker in a real browser against the real
// server and Chromium: the empty state, a session started from the form with a new
// profile and "Save changes" (the page shows it in use by that session, Delete held
// back), the session stopped (the profile free, its size shown), the picker offering
// the name, and a delete confirmed with the keyboard. At 1280 and 390 px.
import { expect, test } from "@playwright/test";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam, unique } from "./dashboard-helpers";

test("profiles: empty state, a session saving into a new profile, in use, free, picked, deleted", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Profiles");
  const name = `e2e-shop-${unique()}`;

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profiles" }).click();
  await expect(page).toHaveURL(/\/browser-profiles$/);
  await expect(page.getByTestId("profiles-empty")).toContainText("No profiles yet.");

  // The session form: a new profile name and Save changes, picked with the keyboard.
  await page.goto("/sessions");
  await page.getByRole("button", { name: "New session" }).click();
  await page.getByLabel("Context id").fill("e2e-profile");
  const profileName = page.getByLabel("Browser profile");
  await profileName.fill(name);
  await profileName.press("Tab");
  await expect(page.getByLabel("Save changes to the profile")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByLabel("Save changes to the profile")).toBeChecked();
  await page.getByRole("button", { name: "Create session" }).click();
  const sessionRow = page.getByTestId("session-row").filter({ hasText: "e2e-profile" });
  await expect(sessionRow.getByTestId("session-status")).toHaveText(/^(ready|running)$/);

  const listed = await page.request.get("/api/profiles");
  const holder = ((await listed.json()) as { data: { name: string; in_use_by: string }[] }).data.find(
    (p) => p.name === name,
  )?.in_use_by;
  expect(holder).toMatch(/^comp_/);

  await page.goto("/browser-profiles");
  const row = page.getByTestId("profile-row").filter({ hasText: name });
  await expect(row.getByRole("link", { name: holder! })).toHaveAttribute("href", `/sessions/${holder}`);
  await expect(row.getByRole("button", { name: `Delete profile ${name}` })).toBeDisabled();

  // Stopping the session ends the hold and saves the profile.
  await page.goto("/sessions");
  await sessionRow.getByRole("button", { name: "Stop" }).click();
  await page.getByRole("dialog", { name: "Stop this session?" }).getByRole("button", { name: "Stop session" }).click();
  // The stop answers once the row is terminated; the hold ends when the last save is written just after.
  await expect(async () => {
    await page.goto("/browser-profiles");
    await expect(row.getByText("free")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText(/\d+(\.\d)? (B|KB|MB)/);
  await saveScreenshot(page, testInfo, "profiles-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row).toBeVisible();
  await expect
    .poll(() => horizontalOverflow(page), { message: "horizontal overflow on /browser-profiles at 390 px" })
    .toBeLessThanOrEqual(0);
  await saveScreenshot(page, testInfo, "profiles-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  // The session and task forms offer the profile by name.
  await page.goto("/sessions");
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByTestId("profile-picker").locator(`datalist option[value="${name}"]`)).toHaveCount(1);
  await page.goto("/tasks");
  await expect(page.getByTestId("profile-picker").locator(`datalist option[value="${name}"]`)).toHaveCount(1);

  // Delete, confirmed from the keyboard.
  await page.goto("/browser-profiles");
  await row.getByRole("button", { name: `Delete profile ${name}` }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delete this profile?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Delete profile" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("profiles-empty")).toBeVisible();
  expect((await page.request.get("/api/profiles")).ok()).toBe(true);
  await context.close();
});
