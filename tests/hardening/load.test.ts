// @needs server quiet-machine chromium
// Hardening suite "Load" (docs/development.md "Hardening suites"): 50 live browser sessions over two organizations,
// paced open-loop mixed traffic (reads, list, screenshots, clicks, key presses, local-model chat completions:
// DEFAULT_MIX) for a bounded
// time on loopback, then 20 creates at once while it goes on (tests/hardening/mixed-load.ts). Every request
// must succeed and the server stay healthy; p50/p99 per class, in steady state and in the 10 s after the
// burst, are printed against the target (p99 ≤ 200 ms after the burst), which, like every speed
// target, is a figure and not an assertion.
//
// The rate is LOAD_RATE, not the 200 req/s: on the 2-core machines this runs on, the server with
// 50 Chromium pages and the local model in-process does not keep up with 200 req/s of this mix (measured with
// `npm run bench:load`, which runs the same traffic at 200 req/s and prints how far it falls behind). Nor
// with 100 req/s on every such machine: on a slower one (AMD EPYC without AVX-512, where a context with its
// first page takes 111 ms instead of 42) 100 req/s queued the model past its limit (135 answers 429).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "../api/harness";
import { startSite, waitFor, type Site } from "../api/computers-fixtures";
import { printSummary } from "./host-census";
import { percentile, runMixedLoad, summarize, SUMMARY_HEADER } from "./mixed-load";

const SESSIONS = 50;
const LOAD_RATE = 50;
// `npm test` runs a shorter steady phase (scripts/test.mjs CI_LENGTHS); `npm run test:hardening` the full one.
const STEADY_SECONDS = Number(process.env.LOAD_STEADY_SECONDS ?? 30);
const BURST = 20;
const TARGET_AFTER_BURST_P99_MS = 200;

let server: TestServer;
let site: Site;

beforeAll(async () => {
  site = await startSite();
  server = await startServer({ env: { LOG_LEVEL: "warn" } });
}, 120_000);

afterAll(async () => {
  await server?.destroy();
  await site?.close();
});

describe("load", () => {
  // No error, and the server is healthy afterwards.
  it(`${SESSIONS} sessions, ${LOAD_RATE} req/s of mixed traffic, then ${BURST} creates at once`, async () => {
    const keys = [await createOrgKey(server, "Load A"), await createOrgKey(server, "Load B")];
    const result = await runMixedLoad({
      base: server.url,
      keys,
      pageUrl: `${site.url}/form`,
      sessions: SESSIONS,
      ratePerSecond: LOAD_RATE,
      steadySeconds: STEADY_SECONDS,
      burstCreates: BURST,
      afterBurstSeconds: 10,
      model: "svc.sm-1",
      log: (line) => console.log(`[load] ${line}`),
    });
    printSummary(
      `load suite: ${LOAD_RATE} req/s on ${SESSIONS} sessions for ${STEADY_SECONDS} s, then ${BURST} creates at once`,
      SUMMARY_HEADER,
      summarize(result),
    );
    const after = result.samples
      .filter((s) => s.dueAt >= result.burstAt && s.dueAt < result.burstAt + 10_000)
      .map((s) => s.ms);
    const p99 = percentile(after, 99);
    console.log(
      `p99 in the 10 s after the burst: ${p99.toFixed(1)} ms (target ≤ ${TARGET_AFTER_BURST_P99_MS} ms: ` +
        `${p99 <= TARGET_AFTER_BURST_P99_MS ? "met" : "MISSED"})`,
    );

    const errors = [...result.samples.filter((s) => s.error).map((s) => s.error), ...result.burstErrors];
    expect(errors.slice(0, 5)).toEqual([]);
    expect(result.samples.length).toBeGreaterThanOrEqual(LOAD_RATE * (STEADY_SECONDS + 10));
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    // runMixedLoad deleted every session it made: nothing live is left behind.
    await waitFor(
      "no live session left",
      async () => {
        const body = (await (await fetch(`${server.url}/api/health`)).json()) as any;
        return body.checks.sessions.live_sessions as number;
      },
      (n) => n === 0,
      60_000,
      500,
    );
  }, 900_000);
});
