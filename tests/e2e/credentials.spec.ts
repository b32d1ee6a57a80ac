// @needs browser-ui
// The Credentials page (/vault) in a real browser against the real server: an owner
// stores a login from the keyboard (a bad domain first: the server's message names
// the field), sees its name, domain, value names and TOTP yes/no but never a value,
// picks it in the task form, and deletes it after a confirmation; the empty, loading
// and error states; the page at 390 px; and a member, who sees the names only and
// cannot store or delete.
import { expect, test } from "@playwright/test";
import {
  base,
  E2E_PASSWORD,
  horizontalOverflow,
  inviteLink,
  saveScreenshot,
  signUpNewTeam,
  unique,
} from "./dashboard-helpers";

const PASSWORD = "e2e-Vault-pass-8c41d2";
const TOTP = "JBSWY3DPEHPK3PXPJBSWY3DP";

test("store a login, see it without its values, pick it for a task, delete it", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Vault");
  await page.getByRole("link", { name: "Credentials" }).first().click();
  await expect(page).toHaveURL(/\/vault$/);
  await expect(page.getByTestId("credentials-empty")).toContainText("No credentials yet");

  const form = page.getByRole("form", { name: "Store a credential" });
  await form.getByLabel("Name", { exact: true }).fill("acme");
  await form.getByLabel("Domain").fill("acme.example/login");
  // Each value box says what it holds (it was a blank box beside the name).
  await expect(form.getByLabel("Value of username")).toHaveAttribute("placeholder", "value of username");
  await form.getByLabel("Value of username").fill("ada@acme.example");
  await form.getByLabel("Value of password").fill(PASSWORD);
  await form.getByLabel("TOTP secret (optional)").fill(TOTP);
  await form.getByLabel("TOTP secret (optional)").press("Enter");
  await expect(form.getByRole("alert")).toContainText("'domain'");
  await expect(form.getByLabel("Value of password")).toHaveValue(PASSWORD);

  // A third value, added and named from the keyboard; then sent with Enter.
  await form.getByRole("button", { name: "Add a value" }).focus();
  await page.keyboard.press("Enter");
  await form.getByLabel("Name of value 3").fill("company");
  await form.getByLabel("Value of company").fill("Acme Inc");
  await form.getByLabel("Domain").fill("acme.example");
  await form.getByLabel("Domain").press("Enter");
  await expect(form.getByRole("status")).toContainText("Stored “acme”");
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("");

  const row = page.getByTestId("credential-row").filter({ hasText: "acme" });
  await expect(row).toContainText("acme.example");
  await expect(row).toContainText("username");
  await expect(row).toContainText("password");
  await expect(row).toContainText("company");
  await expect(row).toContainText("Yes");
  // Nowhere on the page, nor in what the page was sent.
  await expect(page.locator("body")).not.toContainText(PASSWORD);
  await expect(page.locator("body")).not.toContainText("Acme Inc");
  const listed = await page.evaluate(() => fetch("/api/credentials").then((r) => r.text()));
  expect(listed).toContain('"acme"');
  expect(listed).not.toContain(PASSWORD);
  expect(listed).not.toContain(TOTP);
  await saveScreenshot(page, testInfo, "credentials-1280");

  // The task form offers it.
  await page.goto("/tasks");
  const pick = page.getByRole("group", { name: /Credentials the task may fill/ }).getByLabel("acme");
  await expect(pick).toBeVisible();
  await pick.check();
  await expect(pick).toBeChecked();

  // Delete, after the confirmation (Cancel first keeps it).
  await page.goto("/vault");
  await row.getByRole("button", { name: "Delete acme" }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText("Delete “acme” (acme.example)?");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Delete acme" }).click();
  await dialog.getByRole("button", { name: "Delete credential" }).click();
  await expect(page.getByTestId("credentials-empty")).toBeVisible();
  await context.close();
});

test("loading and error states, and the page at 390 px", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "VaultPhone");

  // Loading: the list's request held until released.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/credentials", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/vault");
  await expect(page.getByText("Loading credentials…")).toBeVisible();
  release();
  await expect(page.getByTestId("credentials-empty")).toBeVisible();
  await page.unroute("**/api/credentials");

  // Error: the server's message and a Retry that recovers.
  await page.route("**/api/credentials", (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: '{"error":{"code":"internal","message":"Internal server error (request req_x)"}}',
    }),
  );
  await page.reload();
  await expect(page.getByTestId("error-state")).toContainText("The credentials could not be loaded.");
  await page.unroute("**/api/credentials");
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("credentials-empty")).toBeVisible();

  const form = page.getByRole("form", { name: "Store a credential" });
  await form.getByLabel("Name", { exact: true }).fill("phone");
  await form.getByLabel("Domain").fill("phone.example");
  await form.getByLabel("Value of username").fill("ada");
  await form.getByLabel("Value of password").fill(PASSWORD);
  await form.getByRole("button", { name: "Store credential" }).click();
  await expect(page.getByTestId("credential-row").filter({ hasText: "phone" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText(PASSWORD);
  expect(await horizontalOverflow(page)).toBe(0);
  await saveScreenshot(page, testInfo, "credentials-390");
  await context.close();
});

test("a member sees the credentials' names only, can pick them for a task, and cannot store or delete", async ({
  browser,
}, testInfo) => {
  const owner = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await owner.newPage();
  await signUpNewTeam(page, "VaultOwner");
  const stored = await page.request.post("/api/credentials", {
    data: { name: "shop", domain: "shop.example", values: { username: "ada", password: PASSWORD } },
  });
  expect(stored.status()).toBe(201);
  const memberEmail = `vaultmate${unique()}@example.test`;
  await page.goto("/members");
  const link = await inviteLink(page, memberEmail);

  // The member joins from the link, on a phone.
  const memberContext = await browser.newContext({ baseURL: base(), viewport: { width: 390, height: 844 } });
  const mate = await memberContext.newPage();
  await mate.goto(link);
  await mate.getByRole("link", { name: "Sign up" }).click();
  await mate.getByLabel("Name").fill("Vault mate");
  await mate.getByLabel("Password").fill(E2E_PASSWORD);
  await mate.getByRole("button", { name: "Sign up" }).click();
  await expect(mate).toHaveURL(/\/sessions$/);

  await mate.goto("/vault");
  const row = mate.getByTestId("credential-row");
  await expect(row).toHaveText("shop");
  await expect(mate.getByText("Owners manage credentials; members see their names")).toBeVisible();
  await expect(mate.getByRole("form", { name: "Store a credential" })).toHaveCount(0);
  await expect(mate.getByRole("button", { name: /Delete/ })).toHaveCount(0);
  for (const secret of ["shop.example", "username", "password", PASSWORD])
    await expect(mate.locator("#main")).not.toContainText(secret);
  // What the page was sent holds the name only; the server refuses a member's store and delete.
  const listed = (await (await mate.request.get("/api/credentials")).json()) as {
    data: Record<string, unknown>[];
    can_manage: boolean;
  };
  expect(listed).toEqual({ data: [{ name: "shop" }], can_manage: false });
  const store = await mate.request.post("/api/credentials", {
    data: { name: "mine", domain: "mine.example", values: { username: "x" } },
  });
  expect(store.status()).toBe(403);
  expect(((await store.json()) as { error: { code: string } }).error.code).toBeTruthy();
  expect((await mate.request.delete("/api/credentials/shop")).status()).toBe(403);
  expect(await horizontalOverflow(mate)).toBe(0);
  await saveScreenshot(mate, testInfo, "credentials-member-390");

  // The task form offers it by name.
  await mate.goto("/tasks");
  await expect(mate.getByRole("group", { name: /Credentials the task may fill/ }).getByLabel("shop")).toBeVisible();
  await owner.close();
  await memberContext.close();
});
