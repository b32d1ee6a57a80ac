// @needs browser-ui
// The Sessions page in a real browser against the real server and Chromium:
// the empty state's curl, a session created from the form that counts down
// on both deadlines and names its member, keep-alive, stop, a key's session named by its key, and
// the list's filters, search and pagination.
import { expect, test, type Locator } from "@playwright/test";
import { base, horizontalOverflow, saveScreenshot, signUpNewTeam, textContrast } from "./dashboard-helpers";

const secondsLeft = async (row: Locator, testId: string) =>
  Number(await row.getByTestId(testId).getAttribute("data-seconds"));

test("create from the form, countdowns, keep-alive, stop; a key's session shows the key", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const email = await signUpNewTeam(page, "Sessions");

  // A new team has no session: the page shows the curl for this server and the way to a key.
  await expect(page.getByTestId("sessions-empty-curl")).toHaveText(
    `curl -X POST ${base()}/computers -H "Authorization: Bearer $CABIN_API_KEY"`,
  );
  await expect(
    page.getByTestId("sessions-empty").getByRole("link", { name: "create one on the Keys page" }),
  ).toHaveAttribute("href", "/keys");

  await page.getByRole("button", { name: "New session" }).click();
  await page.getByLabel("Idle timeout (seconds)").fill("90");
  await page.getByLabel("Context id").fill("e2e-form");
  await page.getByRole("button", { name: "Create session" }).click();
  const row = page.getByTestId("session-row").filter({ hasText: "e2e-form" });
  await expect(row.getByTestId("session-status")).toHaveText(/^(ready|running)$/);
  // A session made in the dashboard names the member who made it.
  await expect(row.getByTestId("session-creator")).toHaveText("Sessions");
  await expect(row.getByTestId("session-creator")).toHaveAttribute("title", email);
  await expect(row.getByTestId("session-tabs")).toHaveText("1");

  // Both countdowns tick down between two reads.
  const expires0 = await secondsLeft(row, "expires-countdown");
  const idle0 = await secondsLeft(row, "idle-countdown");
  expect(idle0).toBeGreaterThan(80);
  expect(idle0).toBeLessThanOrEqual(90);
  await expect.poll(() => secondsLeft(row, "expires-countdown")).toBeLessThan(expires0);
  await expect.poll(() => secondsLeft(row, "idle-countdown")).toBeLessThan(idle0);

  // Keep-alive moves the idle deadline later (polling the list is not activity, so nothing else does). The idle
  // countdown must first be well below the timeout: pressed a second after creation, a reset to 90 s reads 89 again.
  await expect.poll(() => secondsLeft(row, "idle-countdown"), { timeout: 15_000 }).toBeLessThanOrEqual(idle0 - 5);
  const idleBefore = await secondsLeft(row, "idle-countdown");
  await row.getByRole("button", { name: "Keep alive" }).click();
  await expect.poll(() => secondsLeft(row, "idle-countdown")).toBeGreaterThan(idleBefore);

  // A session an agent starts with a key names that key.
  const createdKey = await page.request.post("/api/keys", { data: { name: "e2e agent key" } });
  expect(createdKey.status()).toBe(201);
  const { key, prefix } = (await createdKey.json()) as { key: string; prefix: string };
  const viaApi = await page.request.post("/computers", {
    headers: { authorization: `Bearer ${key}` },
    data: { kind: "browser", context_id: "e2e-api" },
  });
  expect(viaApi.status()).toBe(200);
  const apiSession = (await viaApi.json()) as { id: string };
  const apiRow = page.getByTestId("session-row").filter({ hasText: "e2e-api" });
  await expect(apiRow.getByTestId("session-creator")).toHaveText(`e2e agent key ${prefix}…`);
  // The key's prefix tells keys apart, so it is legible (AA: 4.5:1; it was 2.6:1).
  expect(await textContrast(apiRow.getByTestId("session-creator").getByText(`${prefix}…`))).toBeGreaterThanOrEqual(4.5);

  await saveScreenshot(page, testInfo, "sessions-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(apiRow).toBeVisible();
  // Polled: the page lays out again after the resize (the live view measures its box in a ResizeObserver).
  await expect
    .poll(() => horizontalOverflow(page), { message: "horizontal overflow on /sessions at 390 px" })
    .toBeLessThanOrEqual(0);
  await saveScreenshot(page, testInfo, "sessions-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Search by context_id, then pages of one row each.
  await page.getByLabel("Search by id or context_id").fill("e2e-api");
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expect(page.getByTestId("session-row")).toContainText(apiSession.id);
  await page.getByLabel("Search by id or context_id").fill("");
  await expect(page.getByTestId("session-row")).toHaveCount(2);
  const secondPage = (await (await page.request.get("/api/sessions?page=2&page_size=1")).json()) as {
    total: number;
    data: unknown[];
  };
  expect(secondPage.total).toBe(2);
  expect(secondPage.data).toHaveLength(1);
  const badFilter = await page.request.get("/api/sessions?filter=sleeping");
  expect(badFilter.status()).toBe(400);
  expect(((await badFilter.json()) as { error: { message: string } }).error.message).toContain("filter");

  // Stop: the row stays, ended, with why.
  await row.getByRole("button", { name: "Stop" }).click();
  await page.getByRole("dialog", { name: "Stop this session?" }).getByRole("button", { name: "Stop session" }).click();
  await expect(row.getByTestId("session-status")).toHaveText("ended: stopped");
  await expect(row.getByRole("button", { name: "Keep alive" })).toHaveCount(0);
  await page.getByRole("button", { name: "Ended", exact: true }).click();
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expect(page.getByTestId("session-row")).toContainText("e2e-form");

  expect(
    (
      await page.request.delete(`/computers/${apiSession.id}`, { headers: { authorization: `Bearer ${key}` } })
    ).status(),
  ).toBe(204);
  await context.close();
});
