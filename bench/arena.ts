// npm run bench:arena — the public cloud-browser lifecycle benchmark, run here:
// create → connectOverCDP(endpoints.cdp) → goto a loopback page → release
// (DELETE), BENCH_ARENA_RUNS runs at concurrency 1 and at concurrency
// BENCH_ARENA_CONCURRENCY, p50/p95 of each step and of the whole cycle; the
// floor in the same run is raw Playwright on a running Chromium (newContext →
// newPage → goto → close). Also: connect time and the memory a CDP client adds.
// Starts its own server (production build, own data dir): `npm run build` first.
//   BENCH_ARENA_RUNS=100  BENCH_ARENA_CONCURRENCY=10
import { createServer } from "node:http";
import os from "node:os";
import { chromium } from "playwright-core";
// The pool's own feature switch, so the floor is Chromium as the pool runs it (chromium-features.ts).
import { DISABLE_FEATURES_FLAG, PLAYWRIGHT_DISABLE_FEATURES_FLAG } from "../lib/computers/browser/chromium-features";
import { findChromium } from "../lib/computers/browser/find-chromium";
import { createOrgKey, startServer } from "../tests/api/harness";
import { treePssMiB } from "./process-memory";
import { pct, printTable, timedClient } from "./timing";

const RUNS = Number(process.env.BENCH_ARENA_RUNS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_ARENA_CONCURRENCY ?? 10);
const STEPS = ["create", "connect", "goto", "release", "whole"] as const;
type Step = (typeof STEPS)[number];

const [load1] = os.loadavg();
const site = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>arena</title><h1>arena</h1>");
});
await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;

const server = await startServer({
  env: { LOG_LEVEL: "warn", BROWSER_STANDBY_CONTEXTS: String(Math.max(2, CONCURRENCY)) },
});
const key = await createOrgKey(server, "Arena");
const req = timedClient(server.url, key);
const rows: [string, string, string][] = [];
const fmt = (v: number) => `${v.toFixed(0)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function cycle(): Promise<Record<Step, number>> {
  const t0 = performance.now();
  const created = await req("POST", "/computers", {});
  const t1 = performance.now();
  const browser = await chromium.connectOverCDP(created.body.endpoints.cdp);
  const t2 = performance.now();
  const page = browser.contexts()[0]!.pages()[0]!;
  await page.goto(siteUrl);
  const t3 = performance.now();
  await browser.close();
  await req("DELETE", `/computers/${created.body.id}`);
  const t4 = performance.now();
  return { create: t1 - t0, connect: t2 - t1, goto: t3 - t2, release: t4 - t3, whole: t4 - t0 };
}

/** PSS (MiB) of the process trees of this server's pool Chromiums (browser processes carrying the owner marker). */
function chromiumPssMiB(): number {
  return treePssMiB(
    (p) => p.cmdline.includes("--cabin-owner=") && !p.cmdline.includes("--type=") && p.ppid === server.process.pid,
  ).pss;
}

/** Memory a CDP client adds: PSS of the pool with `n` sessions, then with a connectOverCDP client on each. */
async function clientMemory(n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await req("POST", "/computers", { inactivity_timeout_seconds: 600 })).body.id as string);
  await sleep(3000);
  const before = chromiumPssMiB();
  const browsers = [];
  const connect: number[] = [];
  for (const id of ids) {
    const s = (await req("GET", `/computers/${id}`)).body;
    const t0 = performance.now();
    const browser = await chromium.connectOverCDP(s.endpoints.cdp);
    connect.push(performance.now() - t0);
    await browser.contexts()[0]!.pages()[0]!.goto(siteUrl);
    browsers.push(browser);
  }
  await sleep(3000);
  const after = chromiumPssMiB();
  rows.push([`connectOverCDP, ${n} idle sessions`, `p50 ${fmt(pct(connect, 50))}, p95 ${fmt(pct(connect, 95))}`, ""]);
  rows.push([
    `pool Chromium PSS, ${n} sessions → with a CDP client each`,
    `${before.toFixed(0)} → ${after.toFixed(0)} MiB (${((after - before) / n).toFixed(1)} MiB per client)`,
    "",
  ]);
  for (const b of browsers) await b.close();
  for (const id of ids) await req("DELETE", `/computers/${id}`);
}

async function floorCycle(browser: import("playwright-core").Browser): Promise<number> {
  const t0 = performance.now();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(siteUrl);
  await context.close();
  return performance.now() - t0;
}

/** Runs `task` `runs` times with at most `concurrency` at once; returns every result. */
async function pooled<T>(runs: number, concurrency: number, task: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < runs) {
        started++;
        out.push(await task());
      }
    }),
  );
  return out;
}

function report(label: string, results: Record<Step, number>[], floor: number[], target: string) {
  for (const step of STEPS) {
    const values = results.map((r) => r[step]);
    rows.push([
      `${label}: ${step}`,
      `p50 ${fmt(pct(values, 50))}, p95 ${fmt(pct(values, 95))} (n=${values.length})`,
      step === "whole" ? target : "",
    ]);
  }
  rows.push([
    `${label}: floor (raw newContext→newPage→goto→close)`,
    `p50 ${fmt(pct(floor, 50))}, p95 ${fmt(pct(floor, 95))} (n=${floor.length})`,
    "",
  ]);
}

const raw = await chromium.launch({
  executablePath: findChromium()?.path ?? "/usr/bin/chromium",
  ignoreDefaultArgs: [PLAYWRIGHT_DISABLE_FEATURES_FLAG],
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", DISABLE_FEATURES_FLAG],
});
try {
  await sleep(2000); // the standby contexts fill
  for (let i = 0; i < 3; i++) await cycle(); // warm-up, not counted
  await floorCycle(raw);

  const c1 = await pooled(RUNS, 1, cycle);
  const floor1 = await pooled(RUNS, 1, () => floorCycle(raw));
  report("c=1", c1, floor1, "whole ≤ 150 ms p50");
  await sleep(2000);
  const cN = await pooled(RUNS, CONCURRENCY, cycle);
  const floorN = await pooled(RUNS, CONCURRENCY, () => floorCycle(raw));
  report(`c=${CONCURRENCY}`, cN, floorN, "whole ≤ 300 ms p50");
  await clientMemory(10);
} finally {
  await raw.close();
  await server.destroy();
  site.close();
}

rows.push(["machine load (1-min average at start → end)", `${load1.toFixed(2)} → ${os.loadavg()[0].toFixed(2)}`, ""]);
printTable(rows);
process.exit(0);
