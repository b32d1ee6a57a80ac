// @needs browser-ui
// A task handed to a person, in a real browser at 1280 and 390 px, against a
// server shared with the other task specs (scripted-world.ts) whose model `agent.scripted` asks for a person
// (request_human) and then finishes: the navigation's badge counts 1 waiting
// task, the list says "waiting for a person", the task page's banner gives the
// reason and the take-over link, that link opens in a browser with no login,
// and "Give back to agent" (by keyboard, with a note) lets the task finish.
import { expect, SCRIPTED_MODEL, test } from "./scripted-world";
import { horizontalOverflow, saveScreenshot, signUpNewTeam } from "./dashboard-helpers";

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`a waiting task: badge, banner, take-over link, give back at ${viewport.width} px`, async ({
    browser,
    world,
  }, testInfo) => {
    const { server, upstream, site } = world;
    test.setTimeout(120_000);
    const phone = viewport.width < 768;
    const context = await browser.newContext({ baseURL: server.url, viewport });
    const page = await context.newPage();
    const name = `Helper${viewport.width}`;
    await signUpNewTeam(page, name);
    upstream.setScript([
      {
        text: "A code is needed.",
        call: { name: "request_human", arguments: { reason: "Type the code from the SMS" } },
      },
      { done: { result: "signed in" } },
    ]);
    const started = await page.request.post("/api/tasks", {
      data: {
        instruction: "Sign in to the site",
        kind: "browser",
        model: SCRIPTED_MODEL,
        max_steps: 5,
        start_url: `${site.url}/`,
      },
    });
    expect(started.status()).toBe(201);
    const taskId = ((await started.json()) as { task_id: string }).task_id;

    await page.goto("/tasks");
    // The badge: in the header on a phone (the navigation is a drawer), beside Tasks on a wide window.
    if (phone) {
      await expect(page.getByTestId("waiting-header-link")).toHaveText("1 waiting", { timeout: 20_000 });
      await page.getByRole("button", { name: "Menu" }).click();
    }
    await expect(page.getByTestId("waiting-badge")).toContainText("1", { timeout: 20_000 });
    await expect(page.getByRole("link", { name: /Tasks\s*\(1 task waiting for a person\)/ })).toBeVisible();
    if (phone) await page.keyboard.press("Escape");
    const row = page.getByTestId("task-row").first();
    await expect(row.getByTestId("task-status")).toHaveAttribute("data-status", "awaiting_human");
    await expect(row.getByTestId("task-status")).toHaveText("waiting for a person");
    expect(await horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `tasks-waiting-${viewport.width}`);

    await row.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${taskId}$`));
    const banner = page.getByTestId("handoff-banner");
    await expect(banner).toBeVisible();
    await expect(page.getByTestId("handoff-reason")).toHaveText("Type the code from the SMS");
    await expect(banner).toContainText("Asked by the agent");
    const takeOver = banner.getByRole("link", { name: "Open live view / Take control" });
    const link = await takeOver.getAttribute("href");
    expect(link).toMatch(new RegExp(`/takeover/${taskId}\\?token=`));
    expect(await horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `task-waiting-${viewport.width}`);

    // The take-over link in a browser with no session cookie: the live view, Take control, Done.
    const stranger = await browser.newContext({ viewport });
    const takeover = await stranger.newPage();
    await takeover.goto(link!);
    await expect(takeover.getByTestId("takeover-banner")).toContainText("Type the code from the SMS");
    await expect(takeover.getByTestId("viewer-state")).toHaveAttribute("data-state", "live", { timeout: 20_000 });
    await expect(takeover.getByRole("button", { name: "Take control" })).toBeEnabled();
    expect(await horizontalOverflow(takeover)).toBe(0);
    await saveScreenshot(takeover, testInfo, `takeover-${viewport.width}`);
    await stranger.close();

    // Give back by keyboard, with a note.
    await page.getByLabel(/What did you do\?/).focus();
    await page.keyboard.type("Typed the code 424242");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Done: give back to the agent" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
    await expect(page.getByTestId("handoff-banner")).toHaveCount(0);
    const history = page.getByTestId("handoff-history");
    await expect(history).toContainText("Type the code from the SMS");
    await expect(history).toContainText(`Resumed by ${name}`);
    await expect(history).toContainText("Typed the code 424242");
    await expect(page.getByTestId("task-result")).toContainText("signed in");
    if (phone) await expect(page.getByTestId("waiting-header-link")).toHaveCount(0, { timeout: 20_000 });
    else await expect(page.getByTestId("waiting-badge")).toHaveCount(0, { timeout: 20_000 });
    expect(await horizontalOverflow(page)).toBe(0);
    await saveScreenshot(page, testInfo, `task-handed-back-${viewport.width}`);
    await context.close();
  });
}
