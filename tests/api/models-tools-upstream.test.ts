// @needs server light
// Tools, images and structured output through an openai-compatible upstream:
// a scripted OpenAI-wire server on 127.0.0.1 records what it is sent and
// answers a tool call to a user turn, text to a tool result. The gateway must
// forward requests untouched (images byte-exact) and relay calls as sent,
// with the official client and with the AI SDK's tool loops.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, streamText, tool } from "ai";
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOrgKey, freePort, startServer, type TestServer } from "./harness";
import { closeDbs, openai, postV1, scriptedUpstream, usageRow } from "./models-helpers";

let gateway: TestServer;
let upstream: Server;
let key: string;
const received: Record<string, any>[] = [];

const ARGS = '{"city":"Paris"}';
const usage = { prompt_tokens: 17, completion_tokens: 9, total_tokens: 26 };
const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const toolCall = { id: "call_up_1", type: "function", function: { name: "get_weather", arguments: ARGS } };

function answer(body: Record<string, any>) {
  const last = body.messages.at(-1);
  if (body.tools?.length && last.role === "user") return { toolCalls: true as const, text: null };
  if (body.response_format?.type === "json_schema") return { toolCalls: false as const, text: '{"title":"sea"}' };
  return { toolCalls: false as const, text: last.role === "tool" ? "It is 21 degrees in Paris." : "plain answer" };
}

function scripted(body: any, res: import("node:http").ServerResponse) {
  const a = answer(body);
  const base = { id: "chatcmpl-up", created: 1, model: body.model };
  if (!body.stream) {
    const message = a.toolCalls
      ? { role: "assistant", content: null, tool_calls: [toolCall] }
      : { role: "assistant", content: a.text };
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: a.toolCalls ? "tool_calls" : "stop" }],
        usage,
      }),
    );
  }
  const chunk = (delta: unknown, finish: string | null = null) =>
    frame({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
  res.writeHead(200, { "content-type": "text/event-stream" });
  const parts = a.toolCalls
    ? [
        chunk({ role: "assistant", content: null }),
        chunk({
          tool_calls: [
            { index: 0, id: toolCall.id, type: "function", function: { name: "get_weather", arguments: "" } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
        chunk({}, "tool_calls"),
      ]
    : [
        chunk({ role: "assistant", content: "" }),
        chunk({ content: a.text!.slice(0, 6) }),
        chunk({ content: a.text!.slice(6) }),
        chunk({}, "stop"),
      ];
  res.end(
    parts.join("") + frame({ ...base, object: "chat.completion.chunk", choices: [], usage }) + "data: [DONE]\n\n",
  );
}

const tools: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Weather",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      strict: true,
    },
  },
];
const question: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris?" }];

beforeAll(async () => {
  const port = await freePort();
  upstream = createServer(scriptedUpstream(received, scripted));
  await new Promise<void>((r) => upstream.listen(port, "127.0.0.1", r));
  const url = `http://127.0.0.1:${port}/v1`;
  gateway = await startServer({
    env: {
      MODELS: JSON.stringify({
        "up.agent": { backend: "openai-compatible", url, upstreamModel: "scripted-1" },
        "up.blind": { backend: "openai-compatible", url, capabilities: { vision: false } },
      }),
    },
  });
  key = await createOrgKey(gateway, "Tools Org");
});

afterAll(async () => {
  await closeDbs();
  await gateway?.destroy();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
});

describe("upstream: tool loops with the official client", () => {
  it("relays the call and forwards the tool turn untouched (not streamed), with usage counted", async () => {
    const client = openai(gateway.url, key);
    const first = await client.chat.completions.create({
      model: "up.agent",
      messages: question,
      tools,
      tool_choice: "auto",
      parallel_tool_calls: false,
    });
    expect(first.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { role: "assistant", content: null, tool_calls: [toolCall] },
    });
    expect(received.at(-1)).toEqual({
      model: "scripted-1",
      messages: question,
      tools,
      tool_choice: "auto",
      parallel_tool_calls: false,
    });

    const messages: ChatCompletionMessageParam[] = [
      ...question,
      first.choices[0]!.message,
      { role: "tool", tool_call_id: "call_up_1", content: "21C" },
    ];
    const final = await client.chat.completions.create({ model: "up.agent", messages, tools });
    expect(final.choices[0]).toMatchObject({
      finish_reason: "stop",
      message: { content: "It is 21 degrees in Paris." },
    });
    expect(received.at(-1)!.messages).toEqual(JSON.parse(JSON.stringify(messages)));
    expect(final.usage).toEqual(usage);

    const res = await postV1(
      "/chat/completions",
      { model: "up.agent", messages: question, tools },
      { base: gateway.url, key },
    );
    const row = await usageRow(res.headers.get("x-request-id")!, gateway.databaseUrl);
    expect(row).toMatchObject({ model: "up.agent", inputTokens: 17, outputTokens: 9, status: 200 });
  });

  it("streams the upstream's tool-call deltas as they came", async () => {
    const stream = await openai(gateway.url, key).chat.completions.create({
      model: "up.agent",
      messages: question,
      tools,
      stream: true,
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([
      { index: 0, id: "call_up_1", type: "function", function: { name: "get_weather", arguments: "" } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 0, function: { arguments: '"Paris"}' } },
    ]);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("tool_calls");
    expect(received.at(-1)!.stream_options).toEqual({ include_usage: true });
  });
});

describe("upstream: images, structured output, capabilities", () => {
  it("passes an image part to the upstream byte-exact", async () => {
    const url = `data:image/png;base64,${randomBytes(48 * 1024).toString("base64")}`;
    const messages = [
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image_url", image_url: { url, detail: "high" } },
        ],
      },
    ];
    const res = await postV1(
      "/chat/completions",
      {
        model: "up.agent",
        messages,
        max_completion_tokens: 20,
        presence_penalty: 0.5,
        frequency_penalty: 0.1,
        logit_bias: { "42": -5 },
        seed: 3,
        user: "u-1",
      },
      { base: gateway.url, key },
    );
    expect(res.status).toBe(200);
    const sent = received.at(-1)!;
    expect(sent.messages[0].content[1].image_url.url).toBe(url);
    expect(sent).toEqual({
      model: "scripted-1",
      messages,
      max_completion_tokens: 20,
      presence_penalty: 0.5,
      frequency_penalty: 0.1,
      logit_bias: { "42": -5 },
      seed: 3,
      user: "u-1",
    });
  });

  it("passes json_schema through and returns the upstream's content", async () => {
    const response_format = {
      type: "json_schema" as const,
      json_schema: {
        name: "r",
        schema: { type: "object", properties: { title: { type: "string", pattern: "^s" } } },
        strict: true,
      },
    };
    const r = await openai(gateway.url, key).chat.completions.create({
      model: "up.agent",
      messages: question,
      response_format,
    });
    expect(r.choices[0]!.message.content).toBe('{"title":"sea"}');
    expect(received.at(-1)!.response_format).toEqual(response_format);
  });

  it("a model configured without vision refuses the image before the upstream sees it", async () => {
    const before = received.length;
    const messages = [
      { role: "user", content: [{ type: "image_url", image_url: { url: "https://example.invalid/cat.png" } }] },
    ];
    const res = await postV1("/chat/completions", { model: "up.blind", messages }, { base: gateway.url, key });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      param: "messages[0].content[0]",
      message: expect.stringContaining("up.blind"),
    });
    expect(received.length).toBe(before);
    const info = await openai(gateway.url, key).models.retrieve("up.blind");
    expect(info).toMatchObject({
      id: "up.blind",
      capabilities: { vision: false, tools: true, json_schema: true, embeddings: true },
    });
  });
});

describe("upstream: AI SDK tool loops", () => {
  const provider = () =>
    createOpenAICompatible({ name: "cabin", baseURL: `${gateway.url}/v1`, apiKey: key, includeUsage: true });
  const weather = tool({
    description: "Weather",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, celsius: 21 }),
  });

  it("generateText runs call → tool → answer with stopWhen", async () => {
    const r = await generateText({
      model: provider()("up.agent"),
      prompt: "Weather in Paris?",
      tools: { get_weather: weather },
      stopWhen: stepCountIs(4),
      maxRetries: 0,
    });
    expect(r.steps).toHaveLength(2);
    expect(r.steps[0]!.toolCalls[0]).toMatchObject({ toolName: "get_weather", input: { city: "Paris" } });
    expect(r.steps[0]!.toolResults[0]).toMatchObject({ output: { city: "Paris", celsius: 21 } });
    expect(r.text).toBe("It is 21 degrees in Paris.");
    const toolTurn = received.at(-1)!.messages.at(-1);
    expect(toolTurn).toMatchObject({ role: "tool", tool_call_id: "call_up_1" });
  });

  it("streamText streams the call, the result and the answer", async () => {
    const result = streamText({
      model: provider()("up.agent"),
      prompt: "Weather in Paris?",
      tools: { get_weather: weather },
      stopWhen: stepCountIs(4),
      maxRetries: 0,
    });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toContain("tool-call");
    expect(types.indexOf("tool-result")).toBeGreaterThan(types.indexOf("tool-call"));
    expect(types.lastIndexOf("text-delta")).toBeGreaterThan(types.indexOf("tool-result"));
    expect(await result.text).toBe("It is 21 degrees in Paris.");
  });
});
