// @needs browser-ui
// The sign-up side of a fresh install, in a real browser (docs/limits.md "Sign-up"):
// with the default policy the dashboard opens on Sign up and says the first account
// becomes the owner; after it, a visitor sees that sign-up is by invitation only
// (no form that would fail). With SIGNUP=closed the page says sign-up is closed.
// Servers of their own: the shared e2e server is not fresh and signs up openly.
import { expect, test } from "@playwright/test";
import { startServer, type TestServer } from "../api/harness";
import { E2E_PASSWORD } from "./dashboard-helpers";

const servers: TestServer[] = [];
test.afterAll(async () => {
  for (const server of servers) await server.destroy();
});

async function freshInstall(signup: string | undefined): Promise<TestServer> {
  const server = await startServer({ env: { SIGNUP: signup } });
  servers.push(server);
  return server;
}

test("a fresh install opens on Sign up; the first account owns it; then sign-up is by invitation only", async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const server = await freshInstall(undefined);
  const owner = await browser.newContext();
  const page = await owner.newPage();
  await page.goto(`${server.url}/login`);
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByTestId("first-account-note")).toContainText("the first account becomes its owner");
  await page.getByLabel("Name").fill("Owner");
  await page.getByLabel("Email").fill("owner@example.test");
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  // The first sign-up also creates the team (and, on a busy machine, waits for the database).
  await expect(page).toHaveURL(/\/sessions$/, { timeout: 60_000 });
  await owner.close();

  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  await other.goto(`${server.url}/sign-up`);
  await expect(other.getByRole("heading", { name: "Sign-up is by invitation only" })).toBeVisible();
  await expect(other.getByRole("button", { name: "Sign up" })).toHaveCount(0);
  await other.goto(`${server.url}/login`);
  await expect(other).toHaveURL(/\/login$/);
  await expect(other.getByRole("button", { name: "Log in" })).toBeVisible();
  // Login does not offer an account the policy would refuse: it says how to get one.
  await expect(other.getByRole("link", { name: "Create an account" })).toHaveCount(0);
  await expect(other.getByTestId("signup-policy-note")).toContainText("by invitation");
  await visitor.close();
});

test("with SIGNUP=closed, after the first account the Sign up page says sign-up is closed", async ({ browser }) => {
  test.setTimeout(360_000);
  const server = await freshInstall("closed");
  const first = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email: "owner@example.test", password: E2E_PASSWORD, name: "Owner" }),
  });
  expect(first.status).toBe(200);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/sign-up`);
  await expect(page.getByRole("heading", { name: "Sign-up is closed" })).toBeVisible();
  await expect(page.getByText("created by its operator")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign up" })).toHaveCount(0);
  await page.goto(`${server.url}/login`);
  await expect(page.getByTestId("signup-policy-note")).toContainText("created by its operator");
  await context.close();
});
