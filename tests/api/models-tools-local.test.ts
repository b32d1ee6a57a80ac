// @needs server light
// Tools, structured output and the other chat parameters on the local
// placeholder model, through the official client: the content is meaningless,
// the shapes are not. Forced calls always parse and validate (grammar), a tool
// loop runs to a final answer, streamed calls arrive as OpenAI's deltas. Structured
// output, images and sampling parameters: models-structured-local.test.ts.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, tool } from "ai";
import type OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, inject, it } from "vitest";
import { MODEL, openai, postV1 } from "./models-helpers";
import { expectValidCall, question, timeArgs, tools } from "./local-tools-fixtures";

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
