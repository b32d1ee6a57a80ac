// The floor for bench:sessions' pool figures, measured in the same run: raw
// Playwright on a running Chromium (the pool's flags), no HTTP, no database.
import { chromium } from "playwright-core";
import { DISABLE_FEATURES_FLAG, PLAYWRIGHT_DISABLE_FEATURES_FLAG } from "../lib/computers/browser/chromium-features";
import { findChromium } from "../lib/computers/browser/find-chromium";
import { pct } from "./timing";

// DISABLE_FEATURES_FLAG: the pool's feature switch (chromium-features.ts), which replaces Playwright's.
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--no-first-run",
  DISABLE_FEATURES_FLAG,
];

export interface PoolFloor {
  /** newContext + first newPage, one at a time. */
  create: number[];
  /** Ten newContext + newPage started together, until the last page exists. */
  tenConcurrentMs: number;
  /** BrowserContext.close of a context with one blank page. */
  close: number[];
}

export async function measurePoolFloor(runs = 20): Promise<PoolFloor> {
  const browser = await chromium.launch({
    executablePath: findChromium()?.path ?? "/usr/bin/chromium",
    ignoreDefaultArgs: [PLAYWRIGHT_DISABLE_FEATURES_FLAG],
    args: FLAGS,
  });
  try {
    const create: number[] = [];
    const close: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const context = await browser.newContext();
      await context.newPage();
      create.push(performance.now() - started);
      const closing = performance.now();
      await context.close();
      close.push(performance.now() - closing);
    }
    const started = performance.now();
    const contexts = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const context = await browser.newContext();
        await context.newPage();
        return context;
      }),
    );
    const tenConcurrentMs = performance.now() - started;
    await Promise.all(contexts.map((c) => c.close()));
    return { create, tenConcurrentMs, close };
  } finally {
    await browser.close();
  }
}

export const summary = (values: number[]) =>
  `p50 ${pct(values, 50).toFixed(1)} ms, p95 ${pct(values, 95).toFixed(1)} ms (n=${values.length})`;
