// @needs browser-ui
// Fixes on the existing pages, in a real browser: Members shows each role only
// its own controls, an invitee who signs up from the link lands in the inviting
// team (and no other), reopening the link leads into the app, unknown pages get
// a branded 404, and login returns to the page asked for, never off-site; the
// keys list, when it cannot load, says so with a Retry that recovers.
import { expect, test, type Page } from "@playwright/test";
import { base, E2E_PASSWORD, inviteLink, saveScreenshot, signUpNewTeam, unique } from "./dashboard-helpers";

async function logIn(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
}

test("roles see only their controls; an invitee joins from the link and reopening it leads into the app", async ({
  browser,
}, testInfo) => {
  const ownerContext = await browser.newContext({ baseURL: base() });
  const owner = await ownerContext.newPage();
  await signUpNewTeam(owner, "Ada");

  await owner.goto("/members");
  const ownRow = owner.getByTestId("member-row").filter({ hasText: "(you)" });
  await expect(ownRow).toContainText("Ada");
  await expect(ownRow.getByRole("combobox")).toHaveCount(0); // the last owner cannot demote herself
  const inviteeEmail = `ben${unique()}@example.test`;
  const link = await inviteLink(owner, inviteeEmail);

  // The invitee signs up from the link: the email is filled in and fixed, and they land in Ada's team only.
  const inviteeContext = await browser.newContext({ baseURL: base() });
  const invitee = await inviteeContext.newPage();
  await invitee.goto(link);
  await invitee.getByRole("link", { name: "Sign up" }).click();
  const email = invitee.getByLabel("Email");
  await expect(email).toHaveValue(inviteeEmail);
  await expect(email).not.toBeEditable();
  await saveScreenshot(invitee, testInfo, "sign-up-invitation-1280");
  await invitee.getByLabel("Name").fill("Ben");
  await invitee.getByLabel("Password").fill(E2E_PASSWORD);
  await invitee.getByRole("button", { name: "Sign up" }).click();
  await expect(invitee).toHaveURL(/\/sessions$/);
  await expect(invitee.getByLabel("Organization").locator("option")).toHaveText(["Ada's team"]);

  // A member: no invite form, no role or remove controls anywhere, "(you)" on their own row.
  await invitee.goto("/members");
  await expect(invitee.getByTestId("member-row")).toHaveCount(2);
  await expect(invitee.getByTestId("member-row").filter({ hasText: "(you)" })).toContainText(inviteeEmail);
  await expect(invitee.getByRole("combobox")).toHaveCount(1); // the organization switcher only
  await expect(invitee.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await expect(invitee.getByRole("button", { name: "Invite" })).toHaveCount(0);

  // The owner gets the controls on the member's row.
  await owner.reload();
  const memberRow = owner.getByTestId("member-row").filter({ hasText: inviteeEmail });
  await expect(memberRow.getByRole("combobox", { name: `Role of ${inviteeEmail}` })).toHaveValue("member");
  await expect(memberRow.getByRole("button", { name: "Remove" })).toBeVisible();

  // Reopening the accepted link leads into the team's Sessions page.
  await invitee.goto(link);
  await expect(invitee).toHaveURL(/\/sessions$/);
  await expect(invitee.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();

  // A link that never existed says so, with a way on.
  await invitee.goto("/invite/no-such-invitation");
  await expect(invitee.getByRole("heading", { name: "This invitation link does not work" })).toBeVisible();
  await expect(invitee.getByRole("link", { name: "Go to your dashboard" })).toHaveAttribute("href", "/sessions");

  // An unknown address: the branded 404 inside the shell, with a way back.
  const missing = await invitee.goto("/no-such-page");
  expect(missing?.status()).toBe(404);
  await expect(invitee.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await expect(invitee.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" })).toBeVisible();
  await saveScreenshot(invitee, testInfo, "not-found-1280");
  await invitee.getByRole("link", { name: "Back to Sessions" }).click();
  await expect(invitee).toHaveURL(/\/sessions$/);
  await ownerContext.close();
  await inviteeContext.close();
});

// Also: 404 is plain when logged out.
test("login returns to the page asked for, never to another site; focus is visible", async ({ browser }) => {
  const setup = await browser.newContext({ baseURL: base() });
  const email = await signUpNewTeam(await setup.newPage(), "Cleo");
  await setup.close();

  const context = await browser.newContext({ baseURL: base() });
  const page = await context.newPage();
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Go to the login page" })).toBeVisible();

  await page.goto("/usage");
  await expect(page).toHaveURL(/\/login\?next=%2Fusage$/);
  // Keyboard focus on an input is visible (an outline, whatever the component's own styles).
  await page.keyboard.press("Tab");
  await page.getByLabel("Email").focus();
  expect(await page.getByLabel("Email").evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
  await logIn(page, email);
  await expect(page).toHaveURL(/\/usage$/);

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/login?next=//evil.example");
  await logIn(page, email);
  await expect(page).toHaveURL(`${base()}/sessions`);
  await context.close();
});

test("the keys list that cannot load says so and recovers with Retry", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "KeyRetry");
  await page.route("**/api/keys", (route) =>
    route.request().method() === "GET"
      ? route.fulfill({
          status: 500,
          contentType: "application/json",
          body: '{"error":{"code":"internal","message":"Internal server error (request req_x)"}}',
        })
      : route.continue(),
  );
  await page.goto("/keys");
  await expect(page.getByTestId("error-state")).toContainText("The keys could not be loaded.");
  await page.unroute("**/api/keys");
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText("No API keys yet. Create one above.")).toBeVisible();
  await context.close();
});
