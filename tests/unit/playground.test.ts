// @needs nothing
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SNIPPETS, type CodeCall } from "@/components/playground/code-snippets";
import { presetOf } from "@/components/playground/presets";
import { toUiMessageChunks } from "@/lib/models/playground/playground-stream";

const call: CodeCall = {
  origin: "https://cabin.example.com",
  model: "svc.sm-1",
  messages: [
    { role: "system", content: "Be terse." },
    { role: "user", content: 'It\'s "quoted" and\nmultiline' },
  ],
  temperature: 0.3,
  maxTokens: 512,
};

describe("playground code snippets", () => {
  it("fill in the server's URL, the key variable and the call's settings", () => {
    for (const { build } of Object.values(SNIPPETS)) {
      const code = build(call);
      expect(code).toContain("https://cabin.example.com/v1");
      expect(code).toContain("CABIN_API_KEY");
      expect(code).toContain('"svc.sm-1"');
      expect(code).toContain("0.3");
      expect(code).toContain("512");
    }
    expect(SNIPPETS["ai-sdk"].build(call)).toContain("maxOutputTokens: 512");
  });

  it("curl's body survives the shell: quotes and newlines arrive as sent", () => {
    const dataArg = SNIPPETS.curl.build(call).split("-d ")[1]!.trim();
    const printed = execFileSync("sh", ["-c", `printf '%s' ${dataArg}`]).toString();
    expect(JSON.parse(printed)).toMatchObject({
      model: "svc.sm-1",
      messages: call.messages,
      temperature: 0.3,
      max_tokens: 512,
      stream: true,
    });
  });
});

describe("playground presets", () => {
  it("names the preset the values match, else custom", () => {
    expect(presetOf({ temperature: 1, maxTokens: 2048 })).toBe("creative");
    expect(presetOf({ temperature: 0.7, maxTokens: 1024 })).toBe("balanced");
    expect(presetOf({ temperature: 0.3, maxTokens: 512 })).toBe("precise");
    expect(presetOf({ temperature: 0.3, maxTokens: 100 })).toBe("custom");
  });
});

function sseOf(frames: string[], split = 7): ReadableStream<Uint8Array> {
  // Frames cut at arbitrary byte boundaries, as a network delivers them.
  const bytes = new TextEncoder().encode(frames.map((f) => `data: ${f}\n\n`).join(""));
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += split) controller.enqueue(bytes.slice(i, i + split));
      controller.close();
    },
  });
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<T>) out.push(chunk);
  return out;
}

const chunk = (delta: object, finish: string | null = null) =>
  JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] });

describe("OpenAI SSE to UI message chunks", () => {
  const model = { id: "m", prices: { input: 0.2, output: 0.3 } };

  it("streams text deltas and ends with tokens and cost as metadata", async () => {
    const chunks = await collect(
      toUiMessageChunks(
        sseOf([
          chunk({ role: "assistant", content: "" }),
          chunk({ content: "Hel" }),
          chunk({ content: "lo" }),
          chunk({}, "length"),
          JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } }),
          "[DONE]",
        ]),
        model,
      ),
    );
    expect(chunks.map((c) => c.type)).toEqual([
      "start",
      "text-start",
      "text-delta",
      "text-delta",
      "text-end",
      "finish",
    ]);
    expect(
      chunks
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join(""),
    ).toBe("Hello");
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "length",
      messageMetadata: {
        model: "m",
        input_tokens: 10,
        output_tokens: 2,
        cost_usd: (10 * 0.2 + 2 * 0.3) / 1e6,
        finish_reason: "length",
      },
    });
  });

  it("turns an in-band error into an error chunk and no finish", async () => {
    const chunks = await collect(
      toUiMessageChunks(
        sseOf([chunk({ content: "a" }), JSON.stringify({ error: { message: "model crashed" } })]),
        model,
      ),
    );
    expect(chunks.map((c) => c.type)).toEqual(["start", "text-start", "text-delta", "error", "text-end"]);
    expect(chunks.find((c) => c.type === "error")).toEqual({ type: "error", errorText: "model crashed" });
  });
});
