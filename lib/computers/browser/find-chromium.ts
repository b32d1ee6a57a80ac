// Which Chromium the app launches, in this order: the configured path, Debian's
// headless shell, Playwright's own install, the system Chromium. Also used by the
// start script (scripts/setup/chromium.ts), the e2e config and the benches' floors.
//
// The headless shell (package chromium-headless-shell: the same Chromium without its
// browser UI) comes first because full Chromium's headless mode still builds a browser
// window (views, layout, paint) for every BrowserContext, i.e. every session. Measured
// here for one context with its first page: p50 42 ms and 18 ms of browser-process CPU
// in the shell, against 102 ms and 83 ms in full Chromium 156.
import { accessSync, constants } from "node:fs";
import { chromium } from "playwright-core";
import { getEnv } from "@/lib/env";

export type ChromiumSource = "CHROMIUM_PATH" | "playwright" | "system";

export interface FoundChromium {
  path: string;
  source: ChromiumSource;
}

/** The binary itself: /usr/bin/chromium-headless-shell is a shell script that does not exec it. */
export const HEADLESS_SHELL_CANDIDATES = ["/usr/lib/chromium/chromium-headless-shell"];

const SYSTEM_CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function playwrightChromium(): string | null {
  try {
    const path = chromium.executablePath();
    return path && isExecutable(path) ? path : null;
  } catch {
    return null;
  }
}

export function findChromium(): FoundChromium | null {
  const configured = getEnv().CHROMIUM_PATH;
  if (configured) return isExecutable(configured) ? { path: configured, source: "CHROMIUM_PATH" } : null;
  const shell = HEADLESS_SHELL_CANDIDATES.find(isExecutable);
  if (shell) return { path: shell, source: "system" };
  const bundled = playwrightChromium();
  if (bundled) return { path: bundled, source: "playwright" };
  const system = SYSTEM_CANDIDATES.find(isExecutable);
  return system ? { path: system, source: "system" } : null;
}

export function chromiumHelp(): string {
  const configured = getEnv().CHROMIUM_PATH;
  if (configured)
    return `CHROMIUM_PATH is set to '${configured}', which is not an executable file. Fix the path or unset it.`;
  return [
    "No Chromium found. Browser sessions need one. Either:",
    "  - Debian/Ubuntu: apt-get install -y chromium-headless-shell   (as root; `npm start` does this itself " +
      "when run as root on Debian)",
    "  - any machine with internet: npx playwright install chromium",
    "  - or point CHROMIUM_PATH at a Chromium or Chrome binary.",
  ].join("\n");
}
