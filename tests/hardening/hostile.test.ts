// @needs server quiet-machine chromium desktop
// Hostile requests (docs/development.md "Hardening suites"): ≥ 10,000 requests generated with fast-check from the
// server's own OpenAPI document (its paths, methods and example bodies, then mutated:
// wrong methods, hostile path segments, bodies of the wrong shape, broken JSON, NUL
// bytes, huge numbers, missing or forged keys), plus a fixed corpus of what the
// probe found. Every answer must be < 500, JSON in its surface's envelope unless it is
// a stream or has no body; the server stays healthy; afterwards the rows the API
// lists as running are exactly the sessions the server holds, and ending them leaves
// no browser context or desktop behind.
import http from "node:http";
import os from "node:os";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, poolStats, waitFor, type Target } from "../api/computers-fixtures";
import { canRunDesktops, desktopHealth, desktopImagesDir } from "../api/desktop-fixtures";
import { runCli, startServer, type TestServer } from "../api/harness";
import { printSummary } from "./host-census";
import { HOSTILE_CORPUS, hostileRequest, operationsOf, type Operation } from "./hostile-requests";
import { inPool, percentile, sendRaw, type RawAnswer, type RawRequest } from "./raw-http";

const GENERATED = Number(process.env.HOSTILE_REQUESTS ?? 10_000);
const CONCURRENCY = 8;

let server: TestServer;
let target: Target;
let operations: Operation[];
let liveId = "";

beforeAll(async () => {
  // Generated actions may be valid long ones (a 60 s wait): a short action timeout keeps the live session's queue
  // moving. Generated /v1 bodies are often valid completions with a large max_tokens: the placeholder's smaller context
  // of
  // before (2,048 tokens, not the default 8,192) bounds each such answer to seconds, so the suite's 90 s per request
  // measures the server's handling of the input, not how long a long generation takes on two cores.
  server = await startServer({
    env: {
      ACTION_TIMEOUT_SECONDS: "5",
      MODEL_CONTEXT_SIZE: "2048",
      ...(canRunDesktops ? { DESKTOP_IMAGES_DIR: desktopImagesDir() } : {}),
    },
  });
  const org = JSON.parse(await runCli(server, ["org", "create", "Hostile Org", "--json"])) as { slug: string };
  const { key } = JSON.parse(await runCli(server, ["keys", "create", "--org", org.slug, "--json"])) as { key: string };
  // Generated bodies are often valid creates: a small quota keeps them to a few live sessions (then 429s).
  await runCli(server, ["org", "quota", org.slug, "--browser", "3", "--desktop", "1", "--creates-per-minute", "0"]);
  target = { base: server.url, key };
  liveId = (await api("POST", "/computers", {}, target)).body.id;
  operations = operationsOf((await api("GET", "/openapi.json", undefined, target)).body);
}, 300_000);
afterAll(async () => {
  await server?.destroy();
});

/** What is wrong with one answer, or null. */
function problemWith(request: RawRequest, answer: RawAnswer): string | null {
  if (answer.status >= 500) return `${answer.status} ${answer.body.slice(0, 200)}`;
  if (answer.streamed || request.method === "HEAD" || answer.status === 204 || answer.status === 304) return null;
  // Redirects have no body by design (Next's 308 from a trailing slash to the canonical path).
  if (answer.status === 101 || (answer.status >= 300 && answer.status < 400)) return null;
  if (!/application\/json/.test(answer.contentType))
    return `${answer.status} not JSON (${answer.contentType}): ${answer.body.slice(0, 120)}`;
  let body: { error?: { message?: unknown; type?: unknown; code?: unknown } };
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `${answer.status} unparseable JSON: ${answer.body.slice(0, 120)}`;
  }
  if (answer.status < 400) return null;
  const v1 = request.path.startsWith("/v1");
  const error = body?.error;
  if (typeof error?.message !== "string" || (v1 ? typeof error.type !== "string" : typeof error.code !== "string")) {
    return `${answer.status} outside the ${v1 ? "/v1" : "/computers"} envelope: ${answer.body.slice(0, 160)}`;
  }
  return null;
}

describe("hostile requests", () => {
  // Afterwards the server is healthy and its rows are its sessions.
  it(`${GENERATED} generated requests and the fixed corpus: no 5xx, JSON envelopes`, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const requests: RawRequest[] = [
      ...HOSTILE_CORPUS(liveId, target.key!),
      ...fc.sample(hostileRequest(operations, { liveId, key: target.key! }), { numRuns: GENERATED, seed: 13 }),
    ];
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    const times: number[] = [];
    const started = Date.now();
    await inPool(requests, CONCURRENCY, async (request) => {
      try {
        const answer = await sendRaw(server.port, request, agent, 90_000);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        times.push(answer.ms);
        const problem = problemWith(request, answer);
        if (problem) problems.push(`${request.label}: ${problem}`);
      } catch (err) {
        // Node's own client refuses some header bytes: nothing was sent, nothing to judge.
        if (!(err as { clientRefused?: boolean }).clientRefused)
          problems.push(`${request.label}: ${(err as Error).message}`);
      }
    });
    agent.destroy();
    const seconds = (Date.now() - started) / 1000;
    const health = await api("GET", "/api/health", undefined, target);
    times.sort((a, b) => a - b);
    printSummary(
      `hostile suite: ${requests.length} requests (${GENERATED} generated, seed 13) in ${seconds.toFixed(1)} s ` +
        `(load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")})`,
      ["measure", "value"],
      [
        ["problems", problems.length],
        [
          "answers by status",
          [...statuses]
            .sort(([a], [b]) => a - b)
            .map(([s, n]) => `${s}:${n}`)
            .join(" "),
        ],
        ["p50 / p99 ms", `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)}`],
        ["health after", health.status],
      ],
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(health.status).toBe(200);

    // The rows listed as live are the sessions the server holds; ending them leaves nothing.
    const running = (await api("GET", "/computers?type=live", undefined, target)).body as {
      id: string;
      kind: string;
    }[];
    const stats = await poolStats(server.url);
    expect(running.length).toBe(stats.live_sessions);
    if (canRunDesktops)
      expect(running.filter((row) => row.kind === "desktop").length).toBe((await desktopHealth(target)).live_desktops);
    for (const row of running)
      expect((await api("DELETE", `/computers/${row.id}`, undefined, target)).status).toBe(204);
    await waitFor(
      "no session left",
      () => poolStats(server.url),
      (p) => p.live_sessions === 0 && p.ending_sessions === 0,
      30_000,
      250,
    );
    if (canRunDesktops)
      await waitFor(
        "no desktop left",
        () => desktopHealth(target),
        (h) => h.live_desktops === 0,
        30_000,
        250,
      );
  });
});
