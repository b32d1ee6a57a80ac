// @needs server light postgres chromium
// GET /metrics (docs/operations.md "Metrics"): hidden without METRICS_TOKEN, 401 with a wrong token,
// and Prometheus text whose figures move with real work: a session created and
// deleted, an action run in it, a /v1 call answered by the local model.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call } from "./client";
import { api, createSession } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { MODEL } from "./models-helpers";
import { waitFor } from "./wait-for";

const TOKEN = "metrics-token-0123456789abcdef";
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ env: { METRICS_TOKEN: TOKEN } });
  key = await createOrgKey(server, "metrics");
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await server?.destroy();
});

const scrape = async (authorization = `Bearer ${TOKEN}`) =>
  fetch(`${server.url}/metrics`, { headers: { authorization } });

async function metricsText(): Promise<string> {
  const res = await scrape();
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one sample (`name{labels}`), labels given as a subset; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return 0;
}

describe("GET /metrics", () => {
  it("answers 404 when METRICS_TOKEN is not set (the shared server)", async () => {
    const res = await call("GET", "/metrics", { key: inject("apiKey") });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("refuses a missing or wrong token with a 401 in the JSON envelope", async () => {
    for (const authorization of ["", "Bearer wrong-token-0123456789", `Bearer ${key}`]) {
      const res = await scrape(authorization);
      expect(res.status, authorization).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
  });

  it("serves Prometheus text with process figures and the pool", async () => {
    const res = await scrape();
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^cabin_browser_pool\{resource="browsers"\} \d/m);
    expect(text).toMatch(/^cabin_sessions\{kind="desktop",state="live"\} 0$/m);
  });

  it("moves with a session's create and delete, its actions, and a /v1 call", async () => {
    const target = { base: server.url, key };
    const before = await metricsText();
    const clicksBefore = sample(before, "cabin_action_duration_seconds_count", { type: "click", status: "success" });

    const session = await createSession({}, target);
    const live = await metricsText();
    expect(sample(live, "cabin_sessions", { kind: "browser", state: "live" })).toBe(
      sample(before, "cabin_sessions", { kind: "browser", state: "live" }) + 1,
    );

    const click = await api("POST", `/computers/${session.id}/click`, { x: 5, y: 5 }, target);
    expect(click.body.status).toBe("success");
    const badTab = await api("POST", `/computers/${session.id}/tabs/tab_nope/switch`, undefined, target);
    expect(badTab.status).toBe(404);
    const acted = await metricsText();
    expect(sample(acted, "cabin_action_duration_seconds_count", { type: "click", status: "success" })).toBe(
      clicksBefore + 1,
    );
    expect(
      sample(acted, "cabin_action_duration_seconds_count", { type: "switch_tab", status: "failed" }),
    ).toBeGreaterThanOrEqual(1);

    const chat = await call("POST", "/v1/chat/completions", {
      base: server.url,
      key,
      body: { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 4 },
    });
    expect(chat.status).toBe(200);
    const modelled = await metricsText();
    const labels = { model: MODEL, endpoint: "chat.completions", status: "200" };
    expect(sample(modelled, "cabin_model_requests_total", labels)).toBe(
      sample(before, "cabin_model_requests_total", labels) + 1,
    );
    const output = (t: string) => sample(t, "cabin_model_tokens_total", { model: MODEL, direction: "output" });
    expect(output(modelled) - output(before)).toBe(chat.body.usage.completion_tokens);
    expect(
      sample(modelled, "cabin_model_request_duration_seconds_count", { model: MODEL, status: "200" }),
    ).toBeGreaterThanOrEqual(1);

    expect((await api("DELETE", `/computers/${session.id}`, undefined, target)).status).toBe(204);
    // DELETE answers once the row ends; the tear-down goes on, so the gauge is polled.
    await waitFor(
      async () => {
        const text = await metricsText();
        return (
          sample(text, "cabin_sessions", { kind: "browser", state: "live" }) +
          sample(text, "cabin_sessions", { kind: "browser", state: "ending" })
        );
      },
      { until: (n) => n === 0, message: "the session to leave the cabin_sessions gauge" },
    );
    // The "usage" stage of the session-end event counts it by reason.
    const ended = { kind: "browser", reason: "deleted" };
    expect(sample(await metricsText(), "cabin_sessions_ended_total", ended)).toBe(
      sample(before, "cabin_sessions_ended_total", ended) + 1,
    );
  });
});
