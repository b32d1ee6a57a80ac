// @needs browser-ui
// Settings → Models in a real browser against the real server, with a stand-in
// OpenAI-wire upstream on loopback that answers only the right key: an owner
// adds a model by keyboard, tests it (the answer, then the provider's error
// after a wrong key), edits it, picks it in the Playground and the task form,
// deletes it; the empty, loading and error states; the page at 390 px.
import { expect, test, type Page } from "@playwright/test";
import { startKeyCheckingUpstream, UPSTREAM_KEY, type KeyCheckingUpstream } from "../api/key-checking-upstream";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

let upstream: KeyCheckingUpstream;
test.beforeAll(async () => {
  upstream = await startKeyCheckingUpstream();
});
test.afterAll(async () => {
  await upstream.close();
});

const MODEL_ID = "e2e.vision";

async function openModelsTab(page: Page) {
  await page.goto("/settings");
  const tab = page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Models" });
  await tab.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/settings\/models$/);
  await expect(tab).toHaveAttribute("aria-current", "page");
}

test("add, test, edit, pick in the Playground and the task form, delete", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Models");
  await openModelsTab(page);

  // Empty state, and the server's MODELS read-only.
  await expect(page.getByTestId("models-empty")).toContainText("No models set up in the dashboard yet");
  const environment = page.getByTestId("environment-models");
  await expect(environment).toContainText("svc.sm-1");
  await expect(environment).toContainText("from the environment");
  await expect(environment).toContainText("tzafon.northstar-cua-fast");

  // A bad alias: the server's message names the field, and what was typed stays.
  const form = page.getByRole("form", { name: "Add a model" });
  await form.getByLabel("Model id", { exact: true }).fill(MODEL_ID);
  await form.getByLabel("Base URL").fill(upstream.url);
  await form.getByLabel("API key").fill(UPSTREAM_KEY);
  await form.getByLabel("Upstream model id").fill("vision-large-2");
  await form.getByLabel("Input price (USD per million tokens)").fill("1.5");
  await form.getByLabel("Output price (USD per million tokens)").fill("6");
  await form.getByLabel("Aliases").fill("bad!alias");
  await form.getByLabel("Aliases").press("Enter");
  await expect(form.getByRole("alert")).toContainText("'aliases[0]'");
  await expect(form.getByLabel("Model id", { exact: true })).toHaveValue(MODEL_ID);

  // Fixed, and sent with Enter from the keyboard.
  await form.getByLabel("Aliases").fill("e2e.v");
  await form.getByLabel("Aliases").press("Enter");
  const row = page.getByTestId("stored-model").filter({ hasText: MODEL_ID });
  await expect(row).toContainText(`…${UPSTREAM_KEY.slice(-4)}`);
  await expect(row).toContainText("vision-large-2");
  await expect(row).not.toContainText(UPSTREAM_KEY);
  await expect(form.getByLabel("Model id", { exact: true })).toHaveValue("");

  // Test: the model's answer and the latency.
  await row.getByRole("button", { name: "Test" }).focus();
  await page.keyboard.press("Enter");
  await expect(row.getByRole("status")).toContainText("ready from vision-large-2");
  await expect(row.getByRole("status")).toContainText(/Answered in \d+ ms/);
  await saveScreenshot(page, testInfo, "models-settings-1280");

  // Edit with a wrong key: the test shows the provider's error.
  await row.getByRole("button", { name: "Edit" }).click();
  const dialog = page.getByTestId("edit-model");
  await expect(dialog.getByLabel("Model id", { exact: true })).toHaveValue(MODEL_ID);
  await dialog.getByLabel("API key").fill("sk-wrong-0000");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("…0000");
  await row.getByRole("button", { name: "Test" }).click();
  await expect(row.getByRole("alert")).toContainText("Incorrect API key provided.");

  // Edit back (the key typed again), a new upstream model id; Esc-free keyboard save.
  await row.getByRole("button", { name: "Edit" }).click();
  await dialog.getByLabel("API key").fill(UPSTREAM_KEY);
  await dialog.getByLabel("Upstream model id").fill("vision-large-3");
  await dialog.getByLabel("Upstream model id").press("Enter");
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("vision-large-3");

  // The Playground lists it at once and it answers there.
  await page.getByRole("navigation").getByRole("link", { name: "Playground" }).first().click();
  await expect(page).toHaveURL(/\/playground$/);
  await page.getByLabel("Model").selectOption(MODEL_ID);
  await page.getByLabel("Message", { exact: true }).fill("Are you ready?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("playground-answer").last()).toContainText("ready from vision-large-3");

  // The task form offers it too.
  await page.getByRole("navigation").getByRole("link", { name: "Tasks" }).first().click();
  await expect(page.getByRole("form", { name: "Start a task" }).getByLabel("Model", { exact: true })).toContainText(
    MODEL_ID,
  );

  // Delete, confirmed in the dialog: back to the empty state, gone from the Playground.
  await openModelsTab(page);
  await row.getByRole("button", { name: "Delete" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Delete model" }).click();
  await expect(page.getByTestId("models-empty")).toBeVisible();
  await page.goto("/playground");
  await expect(page.getByLabel("Model").locator(`option[value="${MODEL_ID}"]`)).toHaveCount(0);
  await context.close();
});

test("loading and error states, and the page at 390 px", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Phone");

  // Loading: the list's request held until the skeleton was seen.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/api/models", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/settings/models");
  await expect(page.getByRole("status", { name: "Loading models" })).toBeVisible();
  release();
  await expect(page.getByTestId("models-empty")).toBeVisible();
  await page.unroute("**/api/models");

  // Error: the server's message and a Retry that recovers.
  let fail = true;
  await page.route("**/api/models", (route) =>
    fail
      ? route.fulfill({
          status: 500,
          contentType: "application/json",
          body: '{"error":{"code":"internal","message":"Database unavailable"}}',
        })
      : route.continue(),
  );
  await page.reload();
  await expect(page.getByTestId("error-state")).toContainText("Database unavailable");
  fail = false;
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("models-empty")).toBeVisible();
  await page.unroute("**/api/models");

  // A model added at phone width; nothing overflows sideways.
  const form = page.getByRole("form", { name: "Add a model" });
  await form.getByLabel("Model id", { exact: true }).fill("phone.model");
  await form.getByLabel("Base URL").fill(upstream.url);
  await form.getByLabel("API key").fill(UPSTREAM_KEY);
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByTestId("stored-model")).toContainText("phone.model");
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, testInfo, "models-settings-390");
  await context.close();
});
