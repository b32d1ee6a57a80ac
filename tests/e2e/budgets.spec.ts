// @needs browser-ui
// The Keys page's budget fields, in a real browser: an owner sets a key's
// monthly budget, the key is refused once it is spent, and the page shows the spend.
import { expect, test } from "@playwright/test";

const base = () => process.env.CABIN_E2E_URL!;

test("an owner sets a key's monthly budget on the Keys page; past it the key gets 429 insufficient_quota", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: base() });
  const page = await context.newPage();
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Budgeter");
  await page.getByLabel("Email").fill(`budget${Date.now()}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/sessions$/);

  await page.goto("/keys");
  await page.getByLabel("Key name").fill("budgeted");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key-value").textContent())!.trim();
  await page.getByRole("button", { name: "Done" }).click();

  const row = page.getByTestId("key-row").filter({ hasText: "budgeted" });
  await row.getByLabel("Monthly budget of this key in USD").fill("0.000000001");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByRole("button", { name: "Save" })).toBeDisabled();

  const v1 = (input: string) =>
    page.request.post("/v1/embeddings", {
      headers: { authorization: `Bearer ${key}` },
      data: { model: "svc.sm-1", input },
    });
  expect((await v1("spend")).status()).toBe(200);
  const refused = await v1("again");
  expect(refused.status()).toBe(429);
  expect((await refused.json()).error.code).toBe("insufficient_quota");

  await page.reload();
  await expect(row.getByLabel("Monthly budget of this key in USD")).toHaveValue("1e-9");
  await expect(page.getByTestId("org-budget")).toBeVisible();
  await context.close();
});
