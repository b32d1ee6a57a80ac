// @needs server light postgres
// Limits on a server of its own with tiny settings: requests/min and tokens/min
// per organization (429 + retry-after + x-ratelimit-*), and the bounded queue.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { closeDbs, MODEL, postV1, usageRow } from "./models-helpers";

let server: TestServer;
const keys: Record<string, string> = {};
const ORGS = ["Requests Org", "Bystander Org", "Tokens Org", "Queue Org", "Queue Org 2", "Queue Org 3"];

beforeAll(async () => {
  server = await startServer({
    env: { MODEL_RATE_LIMIT_RPM: "3", MODEL_RATE_LIMIT_TPM: "100", MODEL_QUEUE_SIZE: "0", MODEL_PARALLEL: "1" },
  });
  // Keys first: the CLI takes seconds, and the queue test must not wait on it mid-generation.
  for (const org of ORGS) keys[org] = await createOrgKey(server, org);
});

afterAll(async () => {
  await closeDbs();
  await server?.destroy();
});

const expectRateLimited = async (res: Response, mentions: RegExp) => {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  for (const h of ["limit", "remaining", "reset"]) expect(res.headers.get(`x-ratelimit-${h}-requests`)).toBeTruthy();
  const body = await res.json();
  expect(body).toEqual({
    error: {
      message: expect.stringMatching(mentions),
      type: "rate_limit_error",
      param: null,
      code: "rate_limit_exceeded",
    },
  });
};

describe("rate limits", () => {
  it("refuses the request over the per-minute request limit", async () => {
    const key = keys["Requests Org"]!;
    const embed = () => postV1("/embeddings", { model: MODEL, input: "a" }, { base: server.url, key });
    for (let i = 0; i < 3; i++) {
      const ok = await embed();
      expect(ok.status).toBe(200);
      expect(ok.headers.get("x-ratelimit-limit-requests")).toBe("3");
      expect(ok.headers.get("x-ratelimit-remaining-requests")).toBe(String(2 - i));
      await ok.arrayBuffer();
    }
    await expectRateLimited(await embed(), /3 requests per minute/);
    // Another organization is not affected.
    const other = keys["Bystander Org"]!;
    expect((await postV1("/embeddings", { model: MODEL, input: "a" }, { base: server.url, key: other })).status).toBe(
      200,
    );
  });

  it("refuses once the organization's tokens per minute are spent", async () => {
    const key = keys["Tokens Org"]!;
    const big = await postV1(
      "/completions",
      { model: MODEL, prompt: "hello", max_tokens: 120, temperature: 0 },
      { base: server.url, key },
    );
    expect(big.status).toBe(200);
    expect((await big.json()).usage.total_tokens).toBeGreaterThan(100);
    const next = await postV1(
      "/completions",
      { model: MODEL, prompt: "hello", max_tokens: 1 },
      { base: server.url, key },
    );
    await expectRateLimited(next, /100 tokens per minute/);
    expect(next.headers.get("x-ratelimit-remaining-tokens")).toBe("0");
  });
});

describe("queue and client aborts", () => {
  it("429 when the model's queue is full; an aborted stream frees its slot and stops generating", async () => {
    const key = keys["Queue Org"]!;
    const holder = new AbortController();
    const long = await postV1(
      "/completions",
      { model: MODEL, prompt: "Once upon a time", max_tokens: 1800, temperature: 0, stream: true },
      { base: server.url, key, signal: holder.signal },
    );
    expect(long.status).toBe(200);
    const requestId = long.headers.get("x-request-id")!;
    const reader = long.body!.getReader();
    await reader.read(); // generation is under way

    const second = await postV1(
      "/completions",
      { model: MODEL, prompt: "hi", max_tokens: 1 },
      { base: server.url, key: keys["Queue Org 2"] },
    );
    expect(second.status).toBe(429);
    expect((await second.json()).error).toMatchObject({ type: "rate_limit_error", code: "model_overloaded" });

    holder.abort();
    await reader.cancel().catch(() => {});
    // The abort is recorded as status 499 with the tokens produced so far: far fewer than asked.
    const row = await usageRow(requestId, server.databaseUrl);
    expect(row.status).toBe(499);
    expect(row.stream).toBe(true);
    expect(row.outputTokens).toBeGreaterThan(0);
    expect(row.outputTokens).toBeLessThan(1800);

    // The slot is free again (the queue admits nothing waiting, so a busy model would answer 429).
    const after = await postV1(
      "/completions",
      { model: MODEL, prompt: "hi", max_tokens: 2 },
      { base: server.url, key: keys["Queue Org 3"] },
    );
    expect(after.status).toBe(200);
    expect((await after.json()).usage.completion_tokens).toBe(2);
  });
});
