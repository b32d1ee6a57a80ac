// @needs server chromium
// Start admission (docs/cluster.md "Start admission"): on a server that runs one start at a
// time and lets 4 creates wait, a burst within that bound is all admitted and succeeds, the
// waiting creates show in /metrics as cabin_session_start_queue{state="queued"}, and a burst
// past the bound gets 503s with retry-after that leave no session behind. Waiting creates take
// turns by organization: one organization's create is not held behind another's whole burst.
// Standby contexts are off, so every create starts a context and the queue really fills.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Target } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { waitFor } from "./wait-for";

const TOKEN = "metrics-token-admission-0123456789";
const QUEUE_MAX = 4;
let server: TestServer;
let key: string;

/**
 * A server that runs one start at a time, plus `env`. Standby is off, its floor and its demand-sized
 * ceiling both: a refill after a burst would otherwise hold the one start slot when the next burst comes.
 */
const admissionServer = (env: Record<string, string>) =>
  startServer({
    env: {
      METRICS_TOKEN: TOKEN,
      SESSION_START_CONCURRENCY: "1",
      BROWSER_STANDBY_CONTEXTS: "0",
      BROWSER_STANDBY_MAX_CONTEXTS: "0",
      ...env,
    },
  });

beforeAll(async () => {
  server = await admissionServer({ SESSION_START_QUEUE_MAX: String(QUEUE_MAX), ORG_MAX_BROWSER_SESSIONS: "40" });
  key = await createOrgKey(server, "admission");
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await server?.destroy();
});

const target = () => ({ base: server.url, key });
const create = (t: Target = target()) => api("POST", "/computers", { kind: "browser" }, t);

async function queuedStarts(base = server.url): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const line = (await res.text()).split("\n").find((l) => l.startsWith('cabin_session_start_queue{state="queued"}'));
  return Number(line?.split(" ")[1] ?? Number.NaN);
}

async function liveSessionIds(): Promise<string[]> {
  const res = await api("GET", "/computers?type=live", undefined, target());
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((s) => s.id);
}

async function deleteAll(t: Target = target()) {
  const res = await api("GET", "/computers?type=live", undefined, t);
  for (const { id } of res.body as { id: string }[])
    expect((await api("DELETE", `/computers/${id}`, undefined, t)).status).toBe(204);
}

describe("start admission", () => {
  it("admits a burst within the queue bound, all of it, and shows the waiting creates in /metrics", async () => {
    expect(await queuedStarts()).toBe(0);
    let burstDone = false;
    const burst = Promise.all(Array.from({ length: QUEUE_MAX + 1 }, () => create())).finally(() => (burstDone = true));
    // One start runs at a time, so the others wait where /metrics can see them.
    const seen = await waitFor(async () => (burstDone ? -1 : await queuedStarts()), {
      until: (n) => n !== 0,
      intervalMs: 10,
      message: "a queued start in /metrics",
    });
    const results = await burst;
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(seen).toBeGreaterThan(0);
    expect(await queuedStarts()).toBe(0);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(QUEUE_MAX + 1);
    await deleteAll();
  });

  it("answers a create past the queue bound with a 503 and retry-after, and makes nothing for it", async () => {
    const results = await Promise.all(Array.from({ length: 16 }, () => create()));
    const refused = results.filter((r) => r.status === 503);
    const created = results.filter((r) => r.status === 200);
    expect(refused.length + created.length).toBe(results.length);
    expect(refused.length).toBeGreaterThan(0);
    expect(created.length).toBeGreaterThanOrEqual(QUEUE_MAX + 1);
    for (const r of refused) {
      expect(r.body.error.code).toBe("unavailable");
      expect(r.body.error.message).toMatch(/Too many session starts at once/);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await liveSessionIds()).sort()).toEqual(created.map((r) => r.body.id as string).sort());
    await deleteAll();
  });
});

// Its own server, where every start launches a Chromium of its own (one session per process): a
// start then takes far longer than a request takes to reach the queue, so who waits when is certain.
describe("start admission by organization", () => {
  const BURST = 6;
  let slow: TestServer;
  let a: Target;
  let b: Target;
  beforeAll(async () => {
    slow = await admissionServer({ SESSION_START_QUEUE_MAX: "10", BROWSER_MAX_CONTEXTS_PER_PROCESS: "1" });
    a = { base: slow.url, key: await createOrgKey(slow, "turns-a") };
    b = { base: slow.url, key: await createOrgKey(slow, "turns-b") };
  }, 120_000);
  afterAll(async () => {
    await slow?.stop();
    await slow?.destroy();
  });

  it("admits a second organization's create next, ahead of the rest of the first one's burst", async () => {
    const finished: string[] = [];
    const tagged = (name: string, t: Target) =>
      create(t).then((res) => {
        finished.push(name);
        return res;
      });
    const burst = Array.from({ length: BURST }, (_, i) => tagged(`a${i + 1}`, a));
    // One of the burst starts, the rest wait (the first may already be done: it can take the spare
    // Chromium). Once all of it has arrived and at least two wait, b1 arrives behind them.
    await waitFor(() => queuedStarts(slow.url), {
      until: (n) => n >= 2 && n + finished.length >= BURST - 1,
      intervalMs: 5,
      message: "the rest of the burst queued",
    });
    const results = await Promise.all([...burst, tagged("b1", b)]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    // In arrival order b1 would finish last; in turns it is admitted after the next of the burst.
    expect(finished.indexOf("b1"), finished.join(" ")).toBeLessThanOrEqual(3);
    await deleteAll(a);
    await deleteAll(b);
  });
});
