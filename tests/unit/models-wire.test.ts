// @needs nothing
import { describe, expect, it } from "vitest";
import { ChunkEncoder, completionBody, embeddingsBody, usageOf } from "@/lib/models/gateway/wire";

const meta = { id: "chatcmpl-1", created: 1700000000, model: "svc.sm-1" };
const decode = (b: Uint8Array | null) => new TextDecoder().decode(b!);
const json = (b: Uint8Array | null) => JSON.parse(decode(b).replace(/^data: /, ""));

describe("OpenAI wire encoding", () => {
  it("builds chat and text completion objects", () => {
    const chat = completionBody("chat.completions", meta, "hi", "length", usageOf(3, 2));
    expect(chat).toMatchObject({
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "length" }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    const text = completionBody("completions", { ...meta, id: "cmpl-1" }, "hi", "stop", usageOf(1, 1));
    expect(text).toMatchObject({
      object: "text_completion",
      choices: [{ index: 0, text: "hi", finish_reason: "stop" }],
    });
  });

  it("frames chat chunks: role first, deltas, finish, usage, [DONE]", () => {
    const enc = new ChunkEncoder("chat.completions", meta, true);
    const frame = decode(enc.delta("a"));
    expect(frame.startsWith("data: ")).toBe(true);
    expect(frame.endsWith("\n\n")).toBe(true);
    expect(json(enc.opening())).toMatchObject({
      object: "chat.completion.chunk",
      choices: [{ delta: { role: "assistant", content: "" }, finish_reason: null }],
      usage: null,
    });
    expect(json(enc.delta("a")).choices[0].delta).toEqual({ content: "a" });
    expect(json(enc.finish("stop")).choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    expect(json(enc.usage(usageOf(1, 2)))).toMatchObject({ choices: [], usage: { total_tokens: 3 } });
    expect(decode(enc.done())).toBe("data: [DONE]\n\n");
  });

  it("frames legacy completion chunks without usage: null unless asked", () => {
    const enc = new ChunkEncoder("completions", meta, false);
    expect(enc.opening()).toBeNull();
    const chunk = json(enc.delta("x"));
    expect(chunk).toMatchObject({ object: "text_completion", choices: [{ text: "x", finish_reason: null }] });
    expect(chunk).not.toHaveProperty("usage");
  });

  it("encodes embeddings as float32, identical in both encodings", () => {
    const vector = [0.1, -0.2, 1 / 3];
    const floats = embeddingsBody("m", [vector], "float", 4);
    const b64 = embeddingsBody("m", [vector], "base64", 4);
    expect(floats).toMatchObject({
      object: "list",
      model: "m",
      usage: { prompt_tokens: 4, total_tokens: 4 },
      data: [{ object: "embedding", index: 0 }],
    });
    const bytes = Buffer.from(b64.data[0]!.embedding as string, "base64");
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
    expect(decoded).toEqual(floats.data[0]!.embedding);
  });
});
