// Browser tests of the dashboard, driving the Chromium the app itself uses
// (Playwright's browser download is not needed). One real server per run.
import { defineConfig } from "@playwright/test";
import { findChromium } from "./lib/computers/browser/find-chromium";

const chromium = findChromium();
if (!chromium)
  throw new Error("No Chromium found for the e2e tests: run `npm test` (installs one) or set CHROMIUM_PATH");

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    headless: true,
    launchOptions: {
      executablePath: chromium.path,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
    trace: "retain-on-failure",
  },
});
