// @needs server light
// The model API through the official openai npm client, against the real
// server and the generated placeholder model: real tokenizer, real decoding.
import { afterAll, describe, expect, it } from "vitest";
import { closeDbs, CUA, MODEL, openai } from "./models-helpers";

const client = openai();
const messages = [
  { role: "system" as const, content: "You are terse." },
  { role: "user" as const, content: "Describe the water of the sea." },
];

afterAll(closeDbs);

describe("GET /v1/models", () => {
  it("lists both default ids, marked as the placeholder model", async () => {
    const page = await client.models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([MODEL, CUA]));
    for (const m of page.data) {
      expect(m).toMatchObject({
        object: "model",
        created: expect.any(Number),
        owned_by: expect.stringContaining("placeholder"),
      });
      expect((m as unknown as { metadata: { placeholder: boolean; notice: string } }).metadata).toMatchObject({
        placeholder: true,
        notice: expect.stringContaining("not meaningful"),
      });
    }
    const one = await client.models.retrieve(CUA);
    expect(one.id).toBe(CUA);
  });
});

describe("POST /v1/chat/completions", () => {
  it("answers a full chat.completion object, the same at temperature 0 every time", async () => {
    const a = await client.chat.completions.create({ model: MODEL, messages, temperature: 0, max_tokens: 16 });
    expect(a.id).toMatch(/^chatcmpl-/);
    expect(a).toMatchObject({ object: "chat.completion", model: MODEL, created: expect.any(Number) });
    expect(a.choices).toHaveLength(1);
    expect(a.choices[0]).toMatchObject({ index: 0, message: { role: "assistant" }, finish_reason: "length" });
    expect(a.choices[0]!.message.content!.length).toBeGreaterThan(0);
    expect(a.usage).toEqual({
      prompt_tokens: expect.any(Number),
      completion_tokens: 16,
      total_tokens: a.usage!.prompt_tokens + 16,
    });
    const b = await client.chat.completions.create({ model: MODEL, messages, temperature: 0, max_tokens: 16 });
    expect(b.choices[0]!.message.content).toBe(a.choices[0]!.message.content);
    expect(b.usage).toEqual(a.usage);
  });

  it("streams deltas that join to the non-streamed text, then usage when asked", async () => {
    const full = await client.chat.completions.create({ model: MODEL, messages, temperature: 0, max_tokens: 24 });
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages,
      temperature: 0,
      max_tokens: 24,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    for (const c of chunks)
      expect(c).toMatchObject({ object: "chat.completion.chunk", id: chunks[0]!.id, model: MODEL });
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe(full.choices[0]!.message.content);
    const finish = chunks.filter((c) => c.choices[0]?.finish_reason);
    expect(finish).toHaveLength(1);
    expect(finish[0]!.choices[0]!.finish_reason).toBe("length");
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual(full.usage);
  });

  it("without include_usage, no usage chunk", async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages,
      temperature: 0,
      max_tokens: 4,
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.choices.length === 1 && !c.usage)).toBe(true);
  });

  it("max_tokens gives finish_reason length and exactly that many completion tokens", async () => {
    for (const max of [1, 5, 33]) {
      const r = await client.chat.completions.create({ model: CUA, messages, temperature: 0, max_tokens: max });
      expect(r.choices[0]!.finish_reason).toBe("length");
      expect(r.usage!.completion_tokens).toBe(max);
    }
  });

  it("stops at a stop sequence (array or string), excluding it, streamed or not", async () => {
    const full = (await client.chat.completions.create({ model: MODEL, messages, temperature: 0, max_tokens: 40 }))
      .choices[0]!.message.content!;
    const stop = full.split(" ").filter((w) => w.length >= 3)[2]!;
    const expected = full.slice(0, full.indexOf(stop));
    for (const s of [[stop, "zzzz-never"], stop]) {
      const r = await client.chat.completions.create({
        model: MODEL,
        messages,
        temperature: 0,
        max_tokens: 40,
        stop: s,
      });
      expect(r.choices[0]!.finish_reason).toBe("stop");
      expect(r.choices[0]!.message.content).toBe(expected);
      expect(r.usage!.completion_tokens).toBeLessThan(40);
    }
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages,
      temperature: 0,
      max_tokens: 40,
      stop: [stop],
      stream: true,
    });
    let text = "";
    let finish: string | null | undefined;
    for await (const c of stream) {
      text += c.choices[0]?.delta.content ?? "";
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(expected);
    expect(finish).toBe("stop");
  });

  it("treats text parts like the same string, and repeats a seeded sample", async () => {
    const asString = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "the sun" }],
      temperature: 0,
      max_tokens: 8,
    });
    const asParts = await client.chat.completions.create({
      model: MODEL,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "the " },
            { type: "text", text: "sun" },
          ],
        },
      ],
      temperature: 0,
      max_tokens: 8,
    });
    expect(asParts.choices[0]!.message.content).toBe(asString.choices[0]!.message.content);
    const seeded = () =>
      client.chat.completions.create({ model: MODEL, messages, temperature: 0.9, seed: 42, max_tokens: 12 });
    expect((await seeded()).choices[0]!.message.content).toBe((await seeded()).choices[0]!.message.content);
  });
});

describe("POST /v1/completions (legacy)", () => {
  it("answers text_completion objects, streamed or not, with the same text", async () => {
    const r = await client.completions.create({
      model: MODEL,
      prompt: "Once upon a time",
      temperature: 0,
      max_tokens: 12,
    });
    expect(r.id).toMatch(/^cmpl-/);
    expect(r).toMatchObject({ object: "text_completion", model: MODEL });
    expect(r.choices[0]).toMatchObject({ index: 0, finish_reason: "length" });
    expect(r.usage).toMatchObject({ completion_tokens: 12, prompt_tokens: expect.any(Number) });
    const same = await client.completions.create({
      model: MODEL,
      prompt: ["Once upon a time"],
      temperature: 0,
      max_tokens: 12,
    });
    expect(same.choices[0]!.text).toBe(r.choices[0]!.text);

    const stream = await client.completions.create({
      model: MODEL,
      prompt: "Once upon a time",
      temperature: 0,
      max_tokens: 12,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage;
    for await (const c of stream) {
      expect(c.object).toBe("text_completion");
      text += c.choices[0]?.text ?? "";
      usage = c.usage ?? usage;
    }
    expect(text).toBe(r.choices[0]!.text);
    expect(usage).toEqual(r.usage);
  });
});

describe("POST /v1/embeddings", () => {
  it("returns fixed-size vectors: identical input, identical vector; base64 decodes to the same floats", async () => {
    const r = await client.embeddings.create({
      model: MODEL,
      input: ["the water is good", "the water is good", "hello world"],
      encoding_format: "float",
    });
    expect(r).toMatchObject({ object: "list", model: MODEL });
    expect(r.data.map((d) => d.index)).toEqual([0, 1, 2]);
    const [a, b, c] = r.data.map((d) => d.embedding);
    expect(a).toHaveLength(64);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    const norm = Math.sqrt(a!.reduce((s, x) => s + x * x, 0));
    expect(norm).toBeCloseTo(1, 5);
    expect(r.usage.prompt_tokens).toBeGreaterThan(3);
    expect(r.usage.total_tokens).toBe(r.usage.prompt_tokens);

    const raw = await client.embeddings.create({ model: MODEL, input: "the water is good", encoding_format: "base64" });
    const bytes = Buffer.from(raw.data[0]!.embedding as unknown as string, "base64");
    expect(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4))).toEqual(a);
    // The client's default: it asks for base64 and decodes it itself.
    const decoded = await client.embeddings.create({ model: MODEL, input: "the water is good" });
    expect(decoded.data[0]!.embedding).toEqual(a);
  });
});
