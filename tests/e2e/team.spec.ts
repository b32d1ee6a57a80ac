// @needs browser-ui
// A team's first minutes, in a real browser: sign up, create a key and see it
// once, revoke it, invite a teammate who signs up from the link and lands in the same org.
import { expect, test, type Page } from "@playwright/test";
import { inviteLink } from "./dashboard-helpers";

const base = () => process.env.CABIN_E2E_URL!;
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

async function signUp(page: Page, name: string, email: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Sign up" }).click();
}

test("sign up, create and revoke a key, invite a teammate who joins the same org", async ({ browser }) => {
  const owner = await browser.newContext({ baseURL: base() });
  const page = await owner.newPage();
  const ownerEmail = `owner${unique()}@example.test`;

  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole("link", { name: "Create an account" }).click();
  await signUp(page, "Olivia", ownerEmail);
  await expect(page).toHaveURL(/\/sessions$/);
  await expect(page.getByLabel("Organization").locator("option:checked")).toHaveText("Olivia's team");
  await expect(page.getByTestId("current-user")).toContainText(ownerEmail);

  // A key is shown once, works, and after revocation stops working.
  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Key name").fill("e2e key");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key-value").textContent())!.trim();
  expect(key).toMatch(/^cbn_[0-9A-Za-z]{48}$/);
  expect((await page.request.get("/v1/models", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(200);
  await page.getByRole("button", { name: "Done" }).click();
  await page.reload();
  const row = page.getByTestId("key-row").filter({ hasText: "e2e key" });
  await expect(row).toContainText(key.slice(0, 12));
  expect(await page.content()).not.toContain(key);
  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog", { name: "Revoke this key?" }).getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("Revoked");
  expect((await page.request.get("/v1/models", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);

  // Invite by link; the invitee signs up through it and accepts.
  const inviteeEmail = `mate${unique()}@example.test`;
  await page.getByRole("link", { name: "Members" }).click();
  const link = await inviteLink(page, inviteeEmail);
  expect(link).toMatch(/\/invite\/\S+$/);

  const invitee = await browser.newContext({ baseURL: base() });
  const mate = await invitee.newPage();
  await mate.goto(link);
  // Signing up from the link joins the team at once; the email is the invitation's.
  await mate.getByRole("link", { name: "Sign up" }).click();
  await expect(mate.getByLabel("Email")).toHaveValue(inviteeEmail);
  await mate.getByLabel("Name").fill("Mateo");
  await mate.getByLabel("Password").fill("correct horse battery");
  await mate.getByRole("button", { name: "Sign up" }).click();
  await expect(mate).toHaveURL(/\/sessions$/);
  await expect(mate.getByLabel("Organization").locator("option:checked")).toHaveText("Olivia's team");
  await mate.getByRole("link", { name: "Members" }).click();
  await expect(mate.getByTestId("member-row").filter({ hasText: ownerEmail })).toBeVisible();

  await page.reload();
  await expect(page.getByTestId("member-row").filter({ hasText: inviteeEmail })).toContainText("member");
  await owner.close();
  await invitee.close();
});
