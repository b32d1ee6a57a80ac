// @needs server light
// The anthropic backend through HTTP: /v1/chat/completions (streaming and
// not, tools, images, usage) and provider errors against a stand-in for the
// Messages API on 127.0.0.1 (./anthropic-stand-in.ts), which checks headers,
// blocks and the conversation as the hosted service does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLAUDE_USAGE_OUT, startAnthropicStandIn, type AnthropicStandIn } from "./anthropic-stand-in";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { closeDbs, openai, postV1, readSse, usageRow } from "./models-helpers";

let gateway: TestServer;
let claude: AnthropicStandIn;
let key: string;

const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const weather = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather of a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

beforeAll(async () => {
  claude = await startAnthropicStandIn("sk-ant-test");
  gateway = await startServer({
    env: {
      MODELS: JSON.stringify({
        claude: { backend: "anthropic", url: claude.url, apiKey: "sk-ant-test", upstreamModel: "claude-sonnet-4-5" },
        "claude-badkey": { backend: "anthropic", url: claude.url, apiKey: "wrong", upstreamModel: "claude-sonnet-4-5" },
      }),
    },
  });
  key = await createOrgKey(gateway, "Claude Org");
});

beforeEach(() => {
  claude.requests.length = 0;
});

afterAll(async () => {
  await closeDbs();
  await gateway?.destroy();
  await claude?.close();
});

describe("chat completions on Claude", () => {
  it("answers a tool call, then text after the tool result, with the provider's usage", async () => {
    claude.setScript([
      { text: "Let me look.", toolUse: [{ name: "get_weather", input: { city: "Paris" } }] },
      { text: "It is 21 degrees in Paris." },
    ]);
    const client = openai(gateway.url, key);
    const first = await client.chat.completions.create({
      model: "claude",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
      ],
      tools: [weather],
      max_tokens: 200,
    });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect(first.choices[0]!.message.content).toBe("Let me look.");
    expect(call).toMatchObject({ type: "function", function: { name: "get_weather" } });
    expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toEqual({ city: "Paris" });
    expect(first.usage?.completion_tokens).toBe(CLAUDE_USAGE_OUT);

    const sent = claude.requests[0]!;
    expect(sent.headers["x-api-key"]).toBe("sk-ant-test");
    expect(sent.body).toMatchObject({
      model: "claude-sonnet-4-5",
      max_tokens: 200,
      system: [{ type: "text", text: "Be brief." }],
      messages: [{ role: "user", content: [{ type: "text", text: "Weather in Paris?" }] }],
      tools: [{ name: "get_weather", description: "Weather of a city", input_schema: weather.function.parameters }],
    });

    const second = await client.chat.completions.create({
      model: "claude",
      messages: [
        { role: "user", content: "Weather in Paris?" },
        first.choices[0]!.message,
        { role: "tool", tool_call_id: call.id, content: "21 C" },
      ],
      tools: [weather],
    });
    expect(second.choices[0]!.message.content).toBe("It is 21 degrees in Paris.");
    // The stand-in refuses a tool_use without its tool_result: the ids made it through both ways.
    expect(claude.requests[1]!.body.messages[2].content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: call.id,
    });
    const row = await usageRow(second._request_id!, gateway.databaseUrl);
    expect(row.outputTokens).toBe(CLAUDE_USAGE_OUT);
  });

  it("streams text and tool-call pieces as chat chunks, usage last", async () => {
    claude.setScript([{ text: "Checking the weather.", toolUse: [{ name: "get_weather", input: { city: "Oslo" } }] }]);
    const res = await postV1(
      "/chat/completions",
      {
        model: "claude",
        messages: [{ role: "user", content: "Weather in Oslo?" }],
        tools: [weather],
        stream: true,
        stream_options: { include_usage: true },
      },
      { base: gateway.url, key },
    );
    expect(res.status).toBe(200);
    const data = await readSse(res);
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("");
    expect(text).toBe("Checking the weather.");
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])
      .map((t: { function?: { arguments?: string } }) => t.function?.arguments ?? "")
      .join("");
    expect(JSON.parse(args)).toEqual({ city: "Oslo" });
    expect(chunks.some((c) => c.choices[0]?.finish_reason === "tool_calls")).toBe(true);
    expect(chunks.at(-1).usage.completion_tokens).toBe(CLAUDE_USAGE_OUT);
    expect(claude.requests[0]!.body.stream).toBe(true);
  });

  it("sends an inline image as base64 and a public https image as the URL the caller gave", async () => {
    claude.setScript([{ text: "A pixel." }]);
    const res = await postV1(
      "/chat/completions",
      {
        model: "claude",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What are these?" },
              { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_1PX}` } },
              { type: "image_url", image_url: { url: "https://images.example.com/cat.png" } },
            ],
          },
        ],
      },
      { base: gateway.url, key },
    );
    expect(res.status).toBe(200);
    expect(claude.requests[0]!.body.messages[0].content.slice(1)).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_1PX } },
      { type: "image", source: { type: "url", url: "https://images.example.com/cat.png" } },
    ]);
  });
});

describe("provider errors", () => {
  it("a refused image URL comes back as a 400 carrying the provider's message", async () => {
    const res = await postV1(
      "/chat/completions",
      {
        model: "claude",
        messages: [
          { role: "user", content: [{ type: "image_url", image_url: { url: "http://10.1.2.3/private.png" } }] },
        ],
      },
      { base: gateway.url, key },
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toContain("Unable to download the file");
  });

  it.each([
    [429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", 429],
    [529, "overloaded_error", "Overloaded", 502],
  ])("a %i %s keeps its message", async (status, type, message, expected) => {
    claude.setScript([{ error: { status, type, message } }]);
    const res = await postV1(
      "/chat/completions",
      { model: "claude", messages: [{ role: "user", content: "hi" }] },
      { base: gateway.url, key },
    );
    expect(res.status).toBe(expected);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain(message);
    if (expected === 502) expect(body.error.message).toContain(String(status));
  });

  it("bad provider credentials are the gateway's 502, naming the provider's answer", async () => {
    const res = await postV1(
      "/chat/completions",
      { model: "claude-badkey", messages: [{ role: "user", content: "hi" }], stream: true },
      { base: gateway.url, key },
    );
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain("401");
    expect(body.error.message).toContain("invalid x-api-key");
  });

  it("embeddings and legacy completions are refused by name", async () => {
    const embed = await postV1("/embeddings", { model: "claude", input: "x" }, { base: gateway.url, key });
    expect(embed.status).toBe(400);
    const completion = await postV1("/completions", { model: "claude", prompt: "x" }, { base: gateway.url, key });
    expect(completion.status).toBe(400);
    expect(((await completion.json()) as { error: { message: string } }).error.message).toContain(
      "chat completions only",
    );
  });
});
