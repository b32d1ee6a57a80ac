// @needs server light
// The google backend through HTTP: /v1/chat/completions (streaming and not,
// tools, images, usage), a provider error, and a computer-use request on
// /v1/responses (Gemini has no computer tool in its provider: vision chat with
// the `computer` function) against a stand-in for Gemini's API on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GEMINI_USAGE, startGeminiStandIn, type GeminiStandIn } from "./gemini-stand-in";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { openai, postV1, readSse } from "./models-helpers";

let gateway: TestServer;
let gemini: GeminiStandIn;
let key: string;

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const weather = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather of a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

beforeAll(async () => {
  gemini = await startGeminiStandIn("gemini-key");
  gateway = await startServer({
    env: {
      MODELS: JSON.stringify({
        gemini: { backend: "google", url: gemini.url, apiKey: "gemini-key", upstreamModel: "gemini-2.5-flash" },
      }),
    },
  });
  key = await createOrgKey(gateway, "Gemini Org");
});

beforeEach(() => {
  gemini.requests.length = 0;
});

afterAll(async () => {
  await gateway?.destroy();
  await gemini?.close();
});

describe("chat completions on Gemini", () => {
  it("answers a tool call, then text after its result, with the provider's usage", async () => {
    gemini.setScript([{ calls: [{ name: "get_weather", args: { city: "Rome" } }] }, { text: "Sunny in Rome." }]);
    const client = openai(gateway.url, key);
    const first = await client.chat.completions.create({
      model: "gemini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Rome?" },
      ],
      tools: [weather],
    });
    const call = first.choices[0]!.message.tool_calls![0]! as {
      id: string;
      function: { name: string; arguments: string };
    };
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "Rome" });
    expect(first.usage).toMatchObject({
      prompt_tokens: GEMINI_USAGE.promptTokenCount,
      completion_tokens: GEMINI_USAGE.candidatesTokenCount,
    });
    const sent = gemini.requests[0]!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(sent.body.systemInstruction).toEqual({ parts: [{ text: "Be brief." }] });
    expect(sent.body.tools[0].functionDeclarations[0]).toMatchObject({ name: "get_weather" });

    const second = await client.chat.completions.create({
      model: "gemini",
      messages: [
        { role: "user", content: "Weather in Rome?" },
        first.choices[0]!.message,
        { role: "tool", tool_call_id: call.id, content: "sunny" },
      ],
      tools: [weather],
    });
    expect(second.choices[0]!.message.content).toBe("Sunny in Rome.");
    expect(gemini.requests[1]!.body.contents[2].parts[0].functionResponse).toMatchObject({ name: "get_weather" });
  });

  it("streams text with usage last, and sends an inline image as inlineData", async () => {
    gemini.setScript([{ text: "A single pixel." }]);
    const res = await postV1(
      "/chat/completions",
      {
        model: "gemini",
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is it?" },
              { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
            ],
          },
        ],
      },
      { base: gateway.url, key },
    );
    expect(res.status).toBe(200);
    const chunks = (await readSse(res)).slice(0, -1).map((d) => JSON.parse(d));
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("A single pixel.");
    expect(chunks.at(-1).usage.completion_tokens).toBe(GEMINI_USAGE.candidatesTokenCount);
    expect(gemini.requests[0]!.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(gemini.requests[0]!.body.contents[0].parts[1]).toEqual({ inlineData: { mimeType: "image/png", data: PNG } });
  });

  it("a provider error keeps its message and status", async () => {
    gemini.setScript([{ error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "Quota exceeded for metric" } }]);
    const res = await postV1(
      "/chat/completions",
      { model: "gemini", messages: [{ role: "user", content: "hi" }] },
      { base: gateway.url, key },
    );
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("Quota exceeded for metric");

    const refused = await postV1(
      "/chat/completions",
      {
        model: "gemini",
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "http://192.168.1.5/x.png" } }] }],
      },
      { base: gateway.url, key },
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("Cannot fetch content");
  });
});

describe("computer use on Gemini", () => {
  it("answers the computer_use tool as vision chat: its `computer` call is a computer_call in 0-1000", async () => {
    gemini.setScript([{ calls: [{ name: "computer", args: { type: "click", x: 500, y: 500, button: "left" } }] }]);
    const res = await postV1(
      "/responses",
      {
        model: "gemini",
        tools: [{ type: "computer_use", display_width: 1280, display_height: 720, environment: "browser" }],
        input: [
          {
            role: "user",
            content: [
              { type: "input_text", text: "Press Go" },
              { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
            ],
          },
        ],
      },
      { base: gateway.url, key },
    );
    const body = (await res.json()) as { output: Record<string, any>[] };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.output.find((i) => i.type === "computer_call")!.action).toEqual({
      type: "click",
      x: 500,
      y: 500,
      button: "left",
    });
    expect(gemini.requests[0]!.body.tools[0].functionDeclarations[0].name).toBe("computer");
  });
});
