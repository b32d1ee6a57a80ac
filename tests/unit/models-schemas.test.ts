// @needs nothing
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import {
  chatCompletionSchema,
  completionSchema,
  embeddingSchema,
  toMessages,
  toSampling,
} from "@/lib/models/gateway/schemas";

const chat = (extra: Record<string, unknown>) => ({
  model: "svc.sm-1",
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});

function paramOf(schema: Parameters<typeof parseWith>[0], body: unknown): string | undefined {
  try {
    parseWith(schema, body);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).status).toBe(400);
    return (e as AppError).param;
  }
  throw new Error("expected a 400");
}

describe("model API request schemas", () => {
  it("applies defaults and normalises stop, content parts and developer role", () => {
    const body = parseWith(chatCompletionSchema, {
      ...chat({ stop: "END" }),
      messages: [
        { role: "developer", content: "be brief" },
        {
          role: "user",
          content: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
        },
      ],
    });
    expect(toMessages(body)).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "ab" },
    ]);
    expect(toSampling(body)).toEqual({
      temperature: 1,
      topP: undefined,
      seed: undefined,
      maxTokens: undefined,
      stop: ["END"],
      stream: false,
    });
    expect(
      toSampling(parseWith(chatCompletionSchema, chat({ max_completion_tokens: 5, stream: true, temperature: 0 }))),
    ).toMatchObject({ maxTokens: 5, stream: true, temperature: 0 });
  });

  it("names the offending field", () => {
    expect(paramOf(chatCompletionSchema, chat({ temperature: 2.5 }))).toBe("temperature");
    expect(paramOf(chatCompletionSchema, chat({ temperature: -1 }))).toBe("temperature");
    expect(paramOf(chatCompletionSchema, chat({ temperature: "hot" }))).toBe("temperature");
    expect(paramOf(chatCompletionSchema, chat({ n: 2 }))).toBe("n");
    expect(paramOf(chatCompletionSchema, chat({ tools: [{ type: "retrieval" }] }))).toBe("tools[0].type");
    expect(
      paramOf(chatCompletionSchema, chat({ tools: [{ type: "function", function: { name: "no spaces" } }] })),
    ).toBe("tools[0].function.name");
    expect(paramOf(chatCompletionSchema, chat({ tool_choice: "always" }))).toBe("tool_choice");
    expect(paramOf(chatCompletionSchema, chat({ response_format: { type: "yaml" } }))).toBe("response_format.type");
    expect(paramOf(chatCompletionSchema, chat({ presence_penalty: 3 }))).toBe("presence_penalty");
    expect(paramOf(chatCompletionSchema, chat({ logit_bias: { abc: 1 } }))).toBe("logit_bias.abc");
    expect(paramOf(chatCompletionSchema, chat({ frobnicate: true }))).toBe("frobnicate");
    // What current OpenAI clients send besides the core parameters is accepted, typed.
    expect(
      parseWith(
        chatCompletionSchema,
        chat({ store: false, metadata: { run: "7" }, service_tier: "auto", reasoning_effort: "low" }),
      ).store,
    ).toBe(false);
    expect(paramOf(chatCompletionSchema, chat({ metadata: { run: 7 } }))).toBe("metadata.run");
    expect(
      paramOf(
        chatCompletionSchema,
        chat({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "ftp://x" } }] }] }),
      ),
    ).toBe("messages[0].content[0].image_url.url");
    expect(parseWith(chatCompletionSchema, chat({ tools: [] })).tools).toEqual([]);
    expect(paramOf(chatCompletionSchema, chat({ max_tokens: 0 }))).toBe("max_tokens");
    expect(paramOf(chatCompletionSchema, chat({ max_tokens: 1.5 }))).toBe("max_tokens");
    expect(paramOf(chatCompletionSchema, chat({ top_p: 0 }))).toBe("top_p");
    expect(paramOf(chatCompletionSchema, chat({ stop: [1] }))).toBe("stop");
    expect(paramOf(chatCompletionSchema, chat({ stream: "yes" }))).toBe("stream");
    expect(paramOf(chatCompletionSchema, chat({ messages: [] }))).toBe("messages");
    expect(paramOf(chatCompletionSchema, chat({ messages: [{ role: "tool", content: "x" }] }))).toBe(
      "messages[0].tool_call_id",
    );
    expect(paramOf(chatCompletionSchema, chat({ messages: [{ role: "robot", content: "x" }] }))).toBe(
      "messages[0].role",
    );
    expect(paramOf(chatCompletionSchema, chat({ messages: [{ role: "user", content: 3 }] }))).toBe(
      "messages[0].content",
    );
    expect(paramOf(chatCompletionSchema, { messages: [{ role: "user", content: "x" }] })).toBe("model");
    expect(paramOf(completionSchema, { model: "m" })).toBe("prompt");
    expect(paramOf(completionSchema, { model: "m", prompt: ["a", "b"] })).toBe("prompt");
    expect(paramOf(embeddingSchema, { model: "m", input: "" })).toBe("input");
    expect(paramOf(embeddingSchema, { model: "m", input: "a", encoding_format: "hex" })).toBe("encoding_format");
  });
});
