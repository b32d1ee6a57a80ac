// @needs browser-ui
// The Playground in a real browser against the real server and its local
// placeholder model: an answer streams in (several renders before it ends),
// Stop ends a long answer, "View code" shows the call for this server, and
// the Usage page then shows the requests and their cost.
import { expect, test, type Page } from "@playwright/test";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

const MODEL = "svc.sm-1";

/** Records the last answer's text length at every DOM change, from now on (window.__answerLengths). */
async function recordAnswerLengths(page: Page) {
  await page.evaluate(() => {
    const lengths: number[] = [];
    (window as unknown as { __answerLengths: number[] }).__answerLengths = lengths;
    const chat = document.querySelector('[data-testid="playground-chat"]')!;
    new MutationObserver(() => {
      const answers = chat.querySelectorAll('[data-testid="playground-answer"]');
      const length = answers[answers.length - 1]?.textContent?.replace(/…$/, "").length ?? 0;
      if (length !== lengths.at(-1)) lengths.push(length);
    }).observe(chat, { subtree: true, childList: true, characterData: true });
  });
}

const answerLengths = (page: Page) =>
  page.evaluate(() => (window as unknown as { __answerLengths: number[] }).__answerLengths);

test("chat streams, Stop ends a long answer, View code, and Usage shows the requests", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUpNewTeam(page, "Playground");
  await page.getByRole("navigation").getByRole("link", { name: "Playground" }).first().click();
  await expect(page).toHaveURL(/\/playground$/);

  // Empty state, the placeholder model marked, the Balanced preset chosen.
  await expect(page.getByTestId("playground-empty")).toBeVisible();
  await expect(page.getByLabel("Model")).toHaveValue(MODEL);
  await expect(page.getByTestId("playground-model-facts")).toContainText("placeholder");
  await expect(page.getByRole("button", { name: "Balanced" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Precise" }).click();
  await expect(page.getByLabel("Temperature")).toHaveValue("0.3");
  await expect(page.getByLabel("Max tokens")).toHaveValue("512");
  const chat = page.getByTestId("playground-chat");

  // Shift+Enter is a new line, Enter sends.
  const box = page.getByLabel("Message", { exact: true });
  await box.fill("Describe water.");
  await box.press("Shift+Enter");
  await box.pressSequentially("In one line.");
  await expect(box).toHaveValue("Describe water.\nIn one line.");
  await expect(page.getByTestId("playground-message-user")).toHaveCount(0);
  await recordAnswerLengths(page);
  await box.press("Enter");
  await expect(page.getByTestId("playground-message-user")).toHaveText("Describe water.\nIn one line.");
  await expect(chat).toHaveAttribute("data-status", "ready", { timeout: 45_000 });
  const facts = page.getByTestId("playground-answer-facts");
  await expect(facts).toHaveText(/\d+ tokens in · 512 out · \$/);
  const lengths = await answerLengths(page);
  const final = (await page.getByTestId("playground-answer").textContent())!.length;
  // Tokens arrived over several renders, each longer than the last, before the end.
  const partial = lengths.filter((n) => n > 0 && n < final);
  expect(partial.length, `renders: ${lengths.join(",")}`).toBeGreaterThanOrEqual(3);
  expect(partial).toEqual([...partial].sort((a, b) => a - b));

  // View code: the same call for this server, with the key from the environment.
  await page.getByRole("button", { name: "View code" }).click();
  const code = page.getByTestId("playground-code");
  await expect(code).toContainText(`baseURL: "${base()}/v1"`);
  await expect(code).toContainText("max_tokens: 512");
  await code.getByRole("button", { name: "curl" }).click();
  await expect(code).toContainText(`curl ${base()}/v1/chat/completions`);
  await expect(code).toContainText('-H "Authorization: Bearer $CABIN_API_KEY"');
  await expect(code).toContainText('"content": "Describe water.\\nIn one line."');
  await saveScreenshot(page, testInfo, "playground-1280");

  // Stop: a long answer (Creative, 2048 tokens, in a cleared chat) ends where it was, and the chat is ready again.
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page.getByTestId("playground-empty")).toBeVisible();
  await page.getByRole("button", { name: "Creative" }).click();
  await box.fill("Tell me a long story.");
  const answer = page.getByTestId("playground-answer");
  // The local model writes ~2000 tokens in about a second on a quiet machine, faster than a
  // round trip from the test: the page itself presses Stop at the first render with text.
  await page.evaluate(() => {
    const chat = document.querySelector('[data-testid="playground-chat"]')!;
    const observer = new MutationObserver(() => {
      const text = chat.querySelector('[data-testid="playground-answer"]')?.textContent?.replace(/…$/, "") ?? "";
      const stop = [...chat.querySelectorAll("button")].find((b) => b.textContent === "Stop");
      if (text.length > 0 && stop) {
        observer.disconnect();
        stop.click();
      }
    });
    observer.observe(chat, { subtree: true, childList: true, characterData: true });
  });
  await recordAnswerLengths(page);
  await box.press("Enter");
  await expect(page.getByText("Stopped before the end")).toBeVisible();
  await expect(chat).toHaveAttribute("data-status", "ready");
  const stoppedAt = (await answer.textContent())!.length;
  expect(stoppedAt).toBeGreaterThan(0);

  // The server recorded the stopped request; the text did not grow meanwhile.
  await expect
    .poll(async () => (await (await page.request.get("/api/usage")).json()).totals.requests, { timeout: 20_000 })
    .toBe(2);
  expect((await answer.textContent())!.length).toBe(stoppedAt);
  expect(Math.max(...(await answerLengths(page)))).toBe(stoppedAt);

  // The phone layout: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => horizontalOverflow(page)).toBe(0);
  await saveScreenshot(page, testInfo, "playground-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Usage: the two requests of the model, with their cost.
  await page.getByRole("navigation").getByRole("link", { name: "Usage" }).first().click();
  const modelRow = page.getByTestId("usage-by-model").getByRole("row").filter({ hasText: MODEL });
  await expect(modelRow).toBeVisible();
  await expect(modelRow.getByRole("cell").nth(1)).toHaveText("2");
  await expect(modelRow.getByRole("cell").last()).toHaveText(/\$0\.0\d*[1-9]/);

  // Over its budget, the organization gets the reason in plain words and a Retry in the chat.
  expect((await page.request.put("/api/budgets", { data: { monthly_budget_usd: 0 } })).status()).toBe(200);
  await page.getByRole("navigation").getByRole("link", { name: "Playground" }).first().click();
  await page.getByLabel("Message", { exact: true }).fill("Anything left?");
  await page.getByRole("button", { name: "Send" }).click();
  const failure = page.getByTestId("playground-chat").getByRole("alert");
  await expect(failure).toContainText("The model could not answer: The organization's monthly budget of $0 is spent");
  await expect(failure.getByRole("button", { name: "Retry" })).toBeVisible();
  await context.close();
});
