// Tools, structured output and the other chat parameters on the local
// placeholder model, through the official client: the content is meaningless,
// the shapes are not. Forced calls always parse and validate (grammar), a tool
// loop runs to a final answer, streamed calls arrive as OpenAI's deltas.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, tool } from "ai";
import type OpenAI from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { describe, expect, inject, it } from "vitest";
import { zodFunction, zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
import { MODEL, openai, postV1 } from "./models-helpers";

const weatherArgs = z.strictObject({
  city: z.string(),
  unit: z.enum(["celsius", "fahrenheit"]),
  days: z.number(),
  tags: z.array(z.string()),
  detailed: z.boolean().optional(),
  at: z.strictObject({ lat: z.number(), lon: z.number() }),
});
const timeArgs = z.strictObject({ zone: z.string().max(10) });

const tools: ChatCompletionTool[] = [
  {
    type: "function",
    function: { name: "get_weather", description: "Weather for a city", parameters: z.toJSONSchema(weatherArgs) },
  },
  { type: "function", function: { name: "get_time", parameters: z.toJSONSchema(timeArgs) } },
];
const validators: Record<string, z.ZodType> = { get_weather: weatherArgs, get_time: timeArgs };
const question: ChatCompletionMessageParam[] = [{ role: "user", content: "What is the weather in Paris?" }];

/** A call's arguments parse as JSON and validate against its tool's schema. */
function expectValidCall(call: { function: { name: string; arguments: string } }) {
  const validator = validators[call.function.name];
  expect(validator, call.function.name).toBeDefined();
  const parsed = validator!.safeParse(JSON.parse(call.function.arguments));
  expect(parsed.success, `${call.function.arguments} → ${parsed.error?.message}`).toBe(true);
}

describe("local model: tools", () => {
  it("runs a tool loop: a required call that validates, the tool's result, a final answer", async () => {
    const client = openai();
    for (const seed of [1, 2, 3]) {
      const first = await client.chat.completions.create({
        model: MODEL,
        messages: question,
        tools,
        tool_choice: "required",
        temperature: 0.8,
        seed,
      });
      const choice = first.choices[0]!;
      expect(choice.finish_reason).toBe("tool_calls");
      expect(choice.message.content).toBeNull();
      expect(choice.message.tool_calls).toHaveLength(1);
      const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(call).toMatchObject({ id: expect.stringMatching(/^call_/), type: "function" });
      expectValidCall(call);
      expect(first.usage!.completion_tokens).toBeGreaterThan(0);

      const final = await client.chat.completions.create({
        model: MODEL,
        messages: [
          ...question,
          choice.message,
          { role: "tool", tool_call_id: call.id, content: '{"temperature": 21}' },
        ],
        tools,
        max_tokens: 8,
        temperature: 0,
      });
      // "auto" on the placeholder answers text or calls again; either way a valid shape.
      const answer = final.choices[0]!;
      if (answer.finish_reason === "tool_calls")
        answer.message.tool_calls!.forEach((c) => expectValidCall(c as OpenAI.ChatCompletionMessageFunctionToolCall));
      else expect(typeof answer.message.content).toBe("string");
      expect(final.usage!.prompt_tokens).toBeGreaterThan(first.usage!.prompt_tokens);
    }
  });

  it("streams a named call as OpenAI does: id and name first, then argument fragments, then tool_calls", async () => {
    const stream = await openai().chat.completions.create({
      model: MODEL,
      messages: question,
      tools,
      tool_choice: { type: "function", function: { name: "get_weather" } },
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: expect.stringMatching(/^call_/),
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    const fragments = toolDeltas.slice(1);
    expect(fragments.length).toBeGreaterThan(1);
    for (const d of fragments) {
      expect(d.index).toBe(0);
      expect(d.id).toBeUndefined();
      expect(d.function?.name).toBeUndefined();
    }
    expectValidCall({
      function: { name: "get_weather", arguments: fragments.map((d) => d.function!.arguments).join("") },
    });
    const last = chunks.filter((c) => c.choices.length).at(-1)!;
    expect(last.choices[0]!.finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)!.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it("runs the AI SDK's multi-step tool loop offline (generateText, stopWhen)", async () => {
    const cabin = createOpenAICompatible({
      name: "cabin",
      baseURL: `${inject("baseUrl")}/v1`,
      apiKey: inject("apiKey"),
      includeUsage: true,
    });
    const inputs: unknown[] = [];
    const get_time = tool({ inputSchema: timeArgs, execute: async (input) => (inputs.push(input), { time: "12:00" }) });
    const r = await generateText({
      // 200: room for the longest call the grammar allows (a zone of 10 characters, each up to a 6-byte escape).
      model: cabin(MODEL),
      prompt: "What time is it?",
      tools: { get_time },
      maxOutputTokens: 200,
      maxRetries: 0,
      stopWhen: stepCountIs(3),
      // The placeholder would rarely choose a call itself: force one, then ask for the answer.
      prepareStep: ({ stepNumber }) => ({ toolChoice: stepNumber === 0 ? "required" : "none" }),
    });
    expect(r.steps).toHaveLength(2);
    expect(r.steps[0]!.finishReason).toBe("tool-calls");
    expect(r.steps[0]!.toolResults[0]).toMatchObject({ toolName: "get_time", output: { time: "12:00" } });
    expect(timeArgs.safeParse(inputs[0]).success).toBe(true);
    expect(r.steps[1]!.toolCalls).toHaveLength(0);
    expect(r.text.length).toBeGreaterThan(0);
  });

  it("answers text with tool_choice none, and parallel_tool_calls is accepted", async () => {
    const r = await openai().chat.completions.create({
      model: MODEL,
      messages: question,
      tools,
      tool_choice: "none",
      parallel_tool_calls: false,
      max_tokens: 5,
    });
    expect(r.choices[0]!.finish_reason).toBe("length");
    expect(r.choices[0]!.message.tool_calls).toBeUndefined();
    expect(typeof r.choices[0]!.message.content).toBe("string");
  });

  it("refuses what it cannot honour with a 400 naming it", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ tools, tool_choice: { type: "function", function: { name: "nope" } } }, "tool_choice"],
      [{ tool_choice: "required" }, "tool_choice"],
      [
        {
          tools: [
            {
              type: "function",
              function: {
                name: "f",
                parameters: { type: "object", properties: { code: { type: "string", pattern: "^[A-Z]+$" } } },
              },
            },
          ],
          tool_choice: "required",
        },
        "tools[0].function.parameters.properties.code.pattern",
      ],
      [
        {
          response_format: { type: "json_schema", json_schema: { name: "n", schema: { type: "number", minimum: 3 } } },
        },
        "response_format.json_schema.schema.minimum",
      ],
      [{ unknown_knob: 1 }, "unknown_knob"],
      [{ logit_bias: { "999999": 5 } }, "logit_bias"],
    ];
    for (const [extra, param] of cases) {
      const res = await postV1("/chat/completions", { model: MODEL, messages: question, max_tokens: 3, ...extra });
      expect(res.status, param).toBe(400);
      expect((await res.json()).error).toMatchObject({ type: "invalid_request_error", param });
    }
  });
});

describe("local model: structured output, images, parameters", () => {
  it("json_schema output always validates; json_object output parses", async () => {
    const schema = z.strictObject({ title: z.string(), score: z.number(), labels: z.array(z.enum(["a", "b"])) });
    for (const seed of [1, 2]) {
      const r = await openai().chat.completions.create({
        model: MODEL,
        messages: question,
        seed,
        temperature: 0.8,
        response_format: {
          type: "json_schema",
          json_schema: { name: "review", schema: z.toJSONSchema(schema), strict: true },
        },
      });
      expect(r.choices[0]!.finish_reason).toBe("stop");
      expect(schema.safeParse(JSON.parse(r.choices[0]!.message.content!)).success).toBe(true);
    }
    const obj = await openai().chat.completions.create({
      model: MODEL,
      messages: question,
      response_format: { type: "json_object" },
    });
    expect(typeof JSON.parse(obj.choices[0]!.message.content!)).toBe("object");
  });

  it("takes zod 4's .int() schemas (safe-integer bounds) from the openai client's helpers, in response_format and tools", async () => {
    const Point = z.object({ x: z.number().int(), y: z.number().int() });
    const client = openai();
    const parsed = await client.chat.completions.parse({
      model: MODEL,
      messages: question,
      response_format: zodResponseFormat(Point, "point"),
      temperature: 0,
    });
    const point = parsed.choices[0]!.message.parsed!;
    expect(Number.isSafeInteger(point.x) && Number.isSafeInteger(point.y)).toBe(true);
    const called = await client.chat.completions.create({
      model: MODEL,
      messages: question,
      tools: [zodFunction({ name: "aim", parameters: Point })],
      tool_choice: "required",
      temperature: 0,
    });
    const call = called.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" && Point.safeParse(JSON.parse(call.function.arguments)).success).toBe(true);
  });

  it("a text-only local model accepts an image part and leaves it out of the prompt (image_inputs 'ignored')", async () => {
    const text = [
      { role: "system" as const, content: "x" },
      { role: "user" as const, content: "what is this?" },
    ];
    const withImage = [
      text[0],
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "low" } },
        ],
      },
    ];
    const seen = await (
      await postV1("/chat/completions", { model: MODEL, messages: withImage, max_tokens: 6, temperature: 0 })
    ).json();
    const plain = await (
      await postV1("/chat/completions", { model: MODEL, messages: text, max_tokens: 6, temperature: 0 })
    ).json();
    expect(seen.choices[0].message.content).toBe(plain.choices[0].message.content);
    expect(seen.usage.prompt_tokens).toBe(plain.usage.prompt_tokens);
  });

  it("shows capabilities on GET /v1/models/{id}, keeping the OpenAI fields", async () => {
    const res = await fetch(`${inject("baseUrl")}/v1/models/${MODEL}`, {
      headers: { authorization: `Bearer ${inject("apiKey")}` },
    });
    expect(await res.json()).toMatchObject({
      id: MODEL,
      object: "model",
      created: expect.any(Number),
      owned_by: expect.any(String),
      capabilities: { vision: false, tools: true, json_schema: true, embeddings: true, image_inputs: "ignored" },
    });
  });

  it("honours seed, penalties and logit_bias, and accepts user and max_completion_tokens", async () => {
    const base = {
      model: MODEL,
      messages: question,
      temperature: 0.9,
      seed: 7,
      max_completion_tokens: 12,
      user: "agent-1",
    };
    const a = await openai().chat.completions.create(base);
    const b = await openai().chat.completions.create(base);
    expect(a.choices[0]!.message.content).toBe(b.choices[0]!.message.content);
    expect(a.usage!.completion_tokens).toBe(12);
    const greedy = { model: MODEL, messages: question, temperature: 0, max_tokens: 12 };
    const plain = await openai().chat.completions.create(greedy);
    const penalized = await openai().chat.completions.create({ ...greedy, frequency_penalty: 2, presence_penalty: 2 });
    expect(penalized.choices[0]!.message.content).not.toBe(plain.choices[0]!.message.content);
    const biased = await openai().chat.completions.create({ ...greedy, logit_bias: { "300": 100 } });
    expect(biased.choices[0]!.message.content).not.toBe(plain.choices[0]!.message.content);
  });
});
