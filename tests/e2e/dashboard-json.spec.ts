// @needs browser-ui
// The dashboard reads its own JSON (snake_case like every JSON Cabin writes):
// after one model request, the usage page shows it by model and by day, and
// the key list shows when the key was last used.
import { expect, test } from "@playwright/test";

const base = () => process.env.CABIN_E2E_URL!;
const MODEL = "svc.sm-1";

test("usage and key pages show what /api/usage and /api/keys report", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base() });
  const page = await context.newPage();
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Usage");
  await page.getByLabel("Email").fill(`usage${Date.now()}${Math.floor(Math.random() * 1000)}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/sessions$/);

  const created = await page.request.post("/api/keys", { data: { name: "usage key" } });
  expect(created.status()).toBe(201);
  const { key } = (await created.json()) as { key: string };
  const chat = await page.request.post("/v1/chat/completions", {
    headers: { authorization: `Bearer ${key}` },
    data: { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 3 },
  });
  expect(chat.status()).toBe(200);
  const { usage } = (await chat.json()) as { usage: { prompt_tokens: number } };

  // Usage rows and last-use times are written after the answer: wait for the JSON first.
  await expect
    .poll(
      async () =>
        ((await (await page.request.get("/api/usage")).json()) as { totals: { requests: number } }).totals.requests,
    )
    .toBe(1);
  await page.goto("/usage");
  const byModel = page.getByTestId("usage-by-model");
  await expect(byModel).toContainText(MODEL);
  const cells = byModel.getByRole("row").filter({ hasText: MODEL }).getByRole("cell");
  await expect(cells.nth(1)).toHaveText("1"); // requests
  await expect(cells.nth(2)).toHaveText(usage.prompt_tokens.toLocaleString("en-US")); // input tokens
  await expect(page.getByTestId("usage-by-day")).toBeVisible();

  await expect
    .poll(
      async () =>
        ((await (await page.request.get("/api/keys")).json()) as { data: { last_used_at: string | null }[] }).data[0]
          ?.last_used_at,
    )
    .toEqual(expect.any(String));
  await page.goto("/keys");
  const row = page.getByTestId("key-row").filter({ hasText: "usage key" });
  await expect(row).toBeVisible();
  await expect(row).not.toContainText("never");
  await context.close();
});
