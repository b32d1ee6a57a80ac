// @needs browser-ui
// The API reference page renders the server's own OpenAPI document: every
// operation of both surfaces, a filter by text and surface with a designed
// empty result, operations that open from the keyboard, and a curl example
// that, with a real key put in, is answered by the server.
import { expect, test } from "@playwright/test";
import { base, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

test("API reference: filter, open an operation by keyboard, and its curl works with a key", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ baseURL: base() });
  const page = await context.newPage();
  await signUpNewTeam(page, "Reference");
  const created = await page.request.post("/api/keys", { data: { name: "reference key" } });
  expect(created.status()).toBe(201);
  const { key } = (await created.json()) as { key: string };

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  const doc = (await (await page.request.get("/openapi.json")).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const total = Object.values(doc.paths).reduce(
    (n, item) => n + Object.keys(item).filter((m) => m !== "parameters").length,
    0,
  );
  await expect(page.getByText(`${total} of ${total} operations`)).toBeVisible();
  await expect(page.getByTestId("api-base-url")).toHaveText(base());

  // Text filter: only the tab operations; then a filter nothing matches, and back.
  const filter = page.getByLabel("Filter operations");
  await filter.fill("tabs");
  await expect(page.getByRole("heading", { name: /^Tabs/, level: 2 })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Inference/, level: 2 })).toHaveCount(0);
  await filter.fill("no such operation");
  await expect(page.getByRole("status").filter({ hasText: "No operation matches" })).toBeVisible();
  await page.getByRole("button", { name: "Clear the filter" }).click();
  await expect(filter).toHaveValue("");
  await expect(page.getByText(`${total} of ${total} operations`)).toBeVisible();

  // Surface filter: the model API only.
  await page.getByRole("group", { name: "Surface" }).getByRole("button", { name: "Model API" }).click();
  await expect(page.getByRole("heading", { name: /^Sessions/, level: 2 })).toHaveCount(0);
  const listModels = page.getByTestId("operation-listModels");
  await expect(listModels).toBeVisible();

  // Open it from the keyboard; its curl, with the key put in, is answered with the model list.
  await listModels.locator("summary").focus();
  await page.keyboard.press("Enter");
  const curl = page.getByTestId("curl-listModels");
  await expect(curl).toBeVisible();
  const command = (await curl.textContent())!;
  const url = /curl (\S+)/.exec(command)![1];
  expect(url).toBe(`${base()}/v1/models`);
  expect(command).toContain("Authorization: Bearer $CABIN_API_KEY");
  const answer = await page.request.get(url, { headers: { authorization: `Bearer ${key}` } });
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { object: string }).object).toBe("list");

  // An operation with a body lists its fields with their types.
  await page.getByRole("group", { name: "Surface" }).getByRole("button", { name: "All" }).click();
  await filter.fill("create a browser");
  await expect(page.getByText(`1 of ${total} operations`)).toBeVisible();
  const create = page.getByTestId("operation-createComputer");
  await create.locator("summary").click();
  await expect(create.getByText("kind", { exact: true })).toBeVisible();
  await expect(create.getByTestId("curl-createComputer")).toContainText("-X POST");
  await saveScreenshot(page, testInfo, "api-reference-operation-1280");
  await context.close();
});
