// @needs server light postgres
// The playground's chat route: a logged-in member's conversation runs through
// the model layer of /v1 (here the local placeholder model), streams back as an
// AI SDK UI message stream, and is billed to the member's organization with no key.
import { afterAll, describe, expect, inject, it } from "vitest";
import { call } from "./client";
import { parseSseText } from "@/lib/api/sse-reader";
import { closeDbs, MODEL, usageRow } from "./models-helpers";
import { signUp, type DashboardUser } from "./session-client";

afterAll(closeDbs);

const PRICES = { input: 0.2, output: 0.3 };

const userMessage = (text: string, id = "m1") => ({ id, role: "user", parts: [{ type: "text", text }] });

function post(user: DashboardUser, body: unknown, signal?: AbortSignal) {
  const base = inject("baseUrl");
  return fetch(`${base}/api/playground/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: user.cookie, origin: base },
    body: JSON.stringify(body),
    signal,
  });
}

/** The UI message chunks of an SSE body, in order. */
async function uiChunks(res: Response): Promise<any[]> {
  return parseSseText(await res.text()).flatMap((item) =>
    item.type === "event" && item.data !== "[DONE]" ? [JSON.parse(item.data)] : [],
  );
}

describe("POST /api/playground/chat", () => {
  it("streams a UI message stream from the local model and bills the organization, with no key", async () => {
    const alice = await signUp("Alice");
    const me = await alice.request("GET", "/api/me");
    const res = await post(alice, {
      id: "chat-1",
      trigger: "submit-message",
      model: MODEL,
      system: "Be brief.",
      temperature: 0.3,
      max_tokens: 6,
      messages: [userMessage("Describe water.")],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const requestId = res.headers.get("x-request-id")!;
    const chunks = await uiChunks(res);
    const types = chunks.map((c) => c.type);
    expect(types[0]).toBe("start");
    expect(types.slice(1, 2)).toEqual(["text-start"]);
    expect(types.filter((t) => t === "text-delta").length).toBeGreaterThanOrEqual(2);
    expect(types.slice(-2)).toEqual(["text-end", "finish"]);
    const finish = chunks.at(-1);
    // The placeholder model never ends by itself: it runs to max_tokens.
    expect(finish.finishReason).toBe("length");
    expect(finish.messageMetadata).toMatchObject({ model: MODEL, output_tokens: 6, finish_reason: "length" });
    const { input_tokens, cost_usd } = finish.messageMetadata;
    expect(input_tokens).toBeGreaterThan(0);
    expect(cost_usd).toBeCloseTo((input_tokens * PRICES.input + 6 * PRICES.output) / 1e6, 12);

    const row = await usageRow(requestId);
    expect(row).toMatchObject({
      organizationId: me.body.organization.id,
      apiKeyId: null,
      endpoint: "chat.completions",
      model: MODEL,
      inputTokens: input_tokens,
      outputTokens: 6,
      status: 200,
      stream: true,
    });
    expect(row.costUsd).toBeCloseTo(cost_usd, 12);
  });

  it("continues a conversation: earlier turns and the system prompt count as input", async () => {
    const alice = await signUp();
    const short = await uiChunks(
      await post(alice, { model: MODEL, temperature: 0, max_tokens: 2, messages: [userMessage("hi")] }),
    );
    const long = await uiChunks(
      await post(alice, {
        model: MODEL,
        system: "You are a careful assistant that answers in full sentences.",
        temperature: 0,
        max_tokens: 2,
        messages: [
          userMessage("hi"),
          {
            id: "a1",
            role: "assistant",
            parts: [{ type: "step-start" }, { type: "text", text: "hello there friend" }],
          },
          userMessage("and then?", "m2"),
        ],
      }),
    );
    expect(long.at(-1).messageMetadata.input_tokens).toBeGreaterThan(short.at(-1).messageMetadata.input_tokens + 10);
  });

  it("stops generating when the browser stops reading (Stop), and records what was made", async () => {
    const alice = await signUp();
    const stop = new AbortController();
    const res = await post(
      alice,
      { model: MODEL, temperature: 1, max_tokens: 4000, messages: [userMessage("Write a long story.")] },
      stop.signal,
    );
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id")!;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes('"text-delta"')) seen += decoder.decode((await reader.read()).value);
    stop.abort();
    const row = await usageRow(requestId);
    expect(row.status).toBe(499);
    expect(row.apiKeyId).toBeNull();
    expect(row.outputTokens).toBeGreaterThan(0);
    expect(row.outputTokens).toBeLessThan(4000);
  });

  it("answers an organization over its budget with a readable 429", async () => {
    const alice = await signUp();
    expect((await alice.request("PUT", "/api/budgets", { monthly_budget_usd: 0 })).status).toBe(200);
    const res = await post(alice, { model: MODEL, temperature: 0, max_tokens: 2, messages: [userMessage("hi")] });
    expect(res.status).toBe(429);
    const body = await res.json();
    expect(body.error.message).toMatch(/monthly budget of \$0 is spent/);
  });

  it("requires a login", async () => {
    const res = await call("POST", "/api/playground/chat", {
      key: null,
      body: { model: MODEL, temperature: 1, max_tokens: 1, messages: [userMessage("hi")] },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthorized");
  });

  it("names the field of a bad body", async () => {
    const alice = await signUp();
    const base = { model: MODEL, temperature: 0.7, max_tokens: 16, messages: [userMessage("hi")] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, temperature: 5 }, "temperature"],
      [{ ...base, max_tokens: 0 }, "max_tokens"],
      [{ ...base, model: undefined }, "model"],
      [{ ...base, messages: [] }, "messages"],
      [{ ...base, messages: [{ id: "x", role: "robot", parts: [] }] }, "messages[0].role"],
      [{ ...base, messages: [{ id: "a", role: "assistant", parts: [{ type: "text", text: "hi" }] }] }, "messages"],
    ];
    for (const [body, param] of cases) {
      const res = await alice.request("POST", "/api/playground/chat", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
    const unknownModel = await alice.request("POST", "/api/playground/chat", { ...base, model: "no-such-model" });
    expect(unknownModel.status).toBe(404);
    expect(unknownModel.body.error).toMatchObject({ param: "model" });
  });
});
