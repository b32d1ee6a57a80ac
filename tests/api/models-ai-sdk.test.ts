// @needs server light
// The AI SDK's OpenAI-compatible provider against /v1: generateText and streamText.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, streamText } from "ai";
import { describe, expect, inject, it } from "vitest";
import { MODEL, openai } from "./models-helpers";

const cabin = createOpenAICompatible({
  name: "cabin",
  baseURL: `${inject("baseUrl")}/v1`,
  apiKey: inject("apiKey"),
  includeUsage: true,
});

describe("AI SDK (createOpenAICompatible)", () => {
  it("generateText matches the official client's answer, with usage", async () => {
    const r = await generateText({
      model: cabin(MODEL),
      prompt: "Tell me about the sea.",
      temperature: 0,
      maxOutputTokens: 12,
      maxRetries: 0,
    });
    const direct = await openai().chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Tell me about the sea." }],
      temperature: 0,
      max_tokens: 12,
    });
    expect(r.text).toBe(direct.choices[0]!.message.content);
    expect(r.finishReason).toBe("length");
    expect(r.usage.outputTokens).toBe(12);
    expect(r.usage.inputTokens).toBe(direct.usage!.prompt_tokens);
  });

  it("streamText streams the same text and reports usage", async () => {
    const args = {
      model: cabin(MODEL),
      system: "Be brief.",
      prompt: "Name a city.",
      temperature: 0,
      maxOutputTokens: 10,
      maxRetries: 0,
    };
    const whole = await generateText(args);
    const result = streamText(args);
    const parts: string[] = [];
    for await (const delta of result.textStream) parts.push(delta);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join("")).toBe(whole.text);
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(10);
    expect(usage.inputTokens).toBe(whole.usage.inputTokens);
    expect(await result.finishReason).toBe("length");
  });
});
