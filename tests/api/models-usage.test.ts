// @needs server light postgres
// Usage metering: one row per request, for the key's organization and key, with
// exact tokens and cost at the model's prices; and the dashboard's summary.
import { afterAll, describe, expect, it } from "vitest";
import { call } from "./client";
import { closeDbs, CUA, db, MODEL, postV1, readSse, usageRow } from "./models-helpers";
import { signUp } from "./session-client";
import { waitFor } from "./wait-for";

afterAll(closeDbs);

const PRICES = { [MODEL]: { input: 0.2, output: 0.3 }, [CUA]: { input: 0.3, output: 1.0 } };
const cost = (model: keyof typeof PRICES, input: number, output: number) =>
  (input * PRICES[model].input + output * PRICES[model].output) / 1_000_000;

describe("usage records", () => {
  it("records a chat completion exactly: tokens, cost, key and organization", async () => {
    const res = await postV1("/chat/completions", {
      model: CUA,
      messages: [{ role: "user", content: "count the sheep" }],
      temperature: 0,
      max_tokens: 7,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    const row = await usageRow(res.headers.get("x-request-id")!);
    expect(row).toMatchObject({
      endpoint: "chat.completions",
      model: CUA,
      inputTokens: body.usage.prompt_tokens,
      outputTokens: 7,
      status: 200,
      stream: false,
    });
    expect(row.costUsd).toBeCloseTo(cost(CUA, body.usage.prompt_tokens, 7), 12);
    expect(row.latencyMs).toBeGreaterThanOrEqual(0);
    const key = await db().apiKey.findUnique({ where: { id: row.apiKeyId! }, include: { organization: true } });
    expect(key?.organizationId).toBe(row.organizationId);
    expect(key?.organization.name).toBe("Org A");
  });

  it("records streamed completions and embeddings", async () => {
    const res = await postV1("/completions", {
      model: MODEL,
      prompt: "the sea",
      temperature: 0,
      max_tokens: 9,
      stream: true,
      stream_options: { include_usage: true },
    });
    const events = await readSse(res);
    expect(events.at(-1)).toBe("[DONE]");
    const usage = JSON.parse(events.at(-2)!).usage;
    const row = await usageRow(res.headers.get("x-request-id")!);
    expect(row).toMatchObject({
      endpoint: "completions",
      stream: true,
      inputTokens: usage.prompt_tokens,
      outputTokens: 9,
      status: 200,
    });
    expect(row.costUsd).toBeCloseTo(cost(MODEL, usage.prompt_tokens, 9), 12);

    const emb = await postV1("/embeddings", { model: MODEL, input: ["one", "two three"] });
    const embBody = await emb.json();
    const embRow = await usageRow(emb.headers.get("x-request-id")!);
    expect(embRow).toMatchObject({
      endpoint: "embeddings",
      inputTokens: embBody.usage.prompt_tokens,
      outputTokens: 0,
      status: 200,
    });
    expect(embRow.costUsd).toBeCloseTo(cost(MODEL, embBody.usage.prompt_tokens, 0), 12);
  });

  it("GET /api/usage sums the organization's last 30 days by day and by model", async () => {
    const alice = await signUp("Usage Alice");
    const created = await alice.request("POST", "/api/keys", { name: "usage" });
    const key = created.body.key as string;
    const first = await (
      await postV1(
        "/chat/completions",
        { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 3, temperature: 0 },
        { key },
      )
    ).json();
    const second = await (
      await postV1("/completions", { model: CUA, prompt: "hi", max_tokens: 5, temperature: 0 }, { key })
    ).json();

    const report = await waitFor(async () => (await alice.request("GET", "/api/usage")).body, {
      until: (r) => r.totals.requests >= 2,
      timeoutMs: 5000,
      intervalMs: 50,
      message: "both requests in the usage report",
    });
    const input = first.usage.prompt_tokens + second.usage.prompt_tokens;
    expect(report.totals).toMatchObject({ requests: 2, input_tokens: input, output_tokens: 8 });
    expect(report.totals.cost_usd).toBeCloseTo(
      cost(MODEL, first.usage.prompt_tokens, 3) + cost(CUA, second.usage.prompt_tokens, 5),
      9,
    );
    expect(report.by_day).toHaveLength(30);
    expect(report.by_day.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10), requests: 2 });
    expect(report.by_model).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ model: MODEL, requests: 1, output_tokens: 3 }),
        expect.objectContaining({ model: CUA, requests: 1, output_tokens: 5 }),
      ]),
    );
    expect(report.models.find((m: { id: string }) => m.id === MODEL)).toMatchObject({ placeholder: true });

    // Organization A's traffic is not in Alice's team's report, and the endpoint needs a login.
    expect(report.totals.requests).toBe(2);
    expect((await call("GET", "/api/usage", { key: null })).status).toBe(401);
  });
});
