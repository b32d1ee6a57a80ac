// @needs server light
import { zodFunction, zodResponseFormat } from "openai/helpers/zod";
import { describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { MODEL, openai, postV1 } from "./models-helpers";
import { question } from "./local-tools-fixtures";

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

  // Also: in response_format and tools.
  it("takes zod 4's .int() schemas (safe-integer bounds) from the openai client's helpers", async () => {
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

  // image_inputs 'ignored'.
  it("a text-only local model accepts an image part and leaves it out of the prompt", async () => {
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
