// Start admission (docs/cluster.md "Start admission"): on a server that runs one start at a
// time and lets 16 creates wait, a burst within that bound is all admitted and succeeds, the
// waiting creates show in /metrics as cabin_session_start_queue{state="queued"}, and a burst
// past the bound gets 503s with retry-after that leave no session behind. Waiting creates take
// turns by organization: one organization's create is not held behind another's whole burst.
// Standby contexts are off, so every create starts a context and the queue really fills.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { waitFor } from "./wait-for";

const TOKEN = "metrics-token-admission-0123456789";
const QUEUE_MAX = 16;
let server: TestServer;
let key: string;
let keyB: string;

beforeAll(async () => {
  server = await startServer({
    env: {
      METRICS_TOKEN: TOKEN,
      SESSION_START_CONCURRENCY: "1",
      SESSION_START_QUEUE_MAX: String(QUEUE_MAX),
      BROWSER_STANDBY_CONTEXTS: "0",
      ORG_MAX_BROWSER_SESSIONS: "100",
    },
  });
  key = await createOrgKey(server, "admission");
  keyB = await createOrgKey(server, "admission-b");
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await server?.destroy();
});

const target = () => ({ base: server.url, key });
const create = (apiKey = key) => api("POST", "/computers", { kind: "browser" }, { base: server.url, key: apiKey });

async function queuedStarts(): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const line = (await res.text()).split("\n").find((l) => l.startsWith('cabin_session_start_queue{state="queued"}'));
  return Number(line?.split(" ")[1] ?? Number.NaN);
}

async function liveSessionIds(): Promise<string[]> {
  const res = await api("GET", "/computers?type=live", undefined, target());
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((s) => s.id);
}

async function deleteAll(apiKey = key) {
  const res = await api("GET", "/computers?type=live", undefined, { base: server.url, key: apiKey });
  for (const { id } of res.body as { id: string }[])
    expect((await api("DELETE", `/computers/${id}`, undefined, { base: server.url, key: apiKey })).status).toBe(204);
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

  it("admits a second organization's create next, ahead of the rest of the first one's burst", async () => {
    const finished: string[] = [];
    const tagged = (name: string, apiKey: string) =>
      create(apiKey).then((res) => {
        finished.push(name);
        return res;
      });
    // The second organization's key is looked up once first, so its create reaches the queue at once.
    expect((await api("GET", "/computers", undefined, { base: server.url, key: keyB })).status).toBe(200);
    const burst = Array.from({ length: QUEUE_MAX }, (_, i) => tagged(`a${i + 1}`, key));
    // One of the burst starts, the others wait; once 10 wait (a start takes 20–100 ms here), b1 arrives behind them.
    await waitFor(queuedStarts, {
      until: (n) => n >= 10,
      intervalMs: 5,
      message: "the burst queued",
    });
    const results = await Promise.all([...burst, tagged("b1", keyB)]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    // In arrival order b1 would finish last, behind the whole burst; in turns it is admitted at the
    // next free slot after it arrives, so most of the burst still follows it.
    const after = finished.slice(finished.indexOf("b1") + 1);
    expect(after.length, finished.join(" ")).toBeGreaterThanOrEqual(2);
    await deleteAll();
    await deleteAll(keyB);
  });

  it("answers a create past the queue bound with a 503 and retry-after, and makes nothing for it", async () => {
    const results = await Promise.all(Array.from({ length: QUEUE_MAX * 3 }, () => create()));
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
