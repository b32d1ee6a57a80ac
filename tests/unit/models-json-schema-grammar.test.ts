// @needs nothing
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/api/errors";
import { MAX_ARRAY_ITEMS, MAX_STRING_LENGTH, toGrammarSchema } from "@/lib/models/local/json-schema-grammar";
import { assembleToolCalls, chatOptionsOf } from "@/lib/models/generation/tools";

function refusal(schema: unknown): string | undefined {
  try {
    toGrammarSchema(schema, "tools[0].function.parameters");
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).param;
  }
  throw new Error("expected a refusal");
}

describe("toGrammarSchema", () => {
  it("bounds strings and arrays, keeps enums, consts, refs and nullable types", () => {
    const out = toGrammarSchema(
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        description: "args",
        properties: {
          name: { type: "string" },
          short: { type: "string", maxLength: 5 },
          tags: { type: "array", items: { type: "string" }, minItems: 1 },
          unit: { type: "string", enum: ["c", "f"] },
          maybe: { type: ["number", "null"] },
          where: { $ref: "#/$defs/point" },
        },
        required: ["name"],
        additionalProperties: false,
        $defs: { point: { type: "object", properties: { x: { type: "number" } } } },
      },
      "p",
    );
    expect(out).toEqual({
      type: "object",
      properties: {
        name: { type: "string", maxLength: MAX_STRING_LENGTH },
        short: { type: "string", maxLength: 5 },
        tags: {
          type: "array",
          items: { type: "string", maxLength: MAX_STRING_LENGTH },
          minItems: 1,
          maxItems: MAX_ARRAY_ITEMS,
        },
        unit: { enum: ["c", "f"] },
        maybe: { oneOf: [{ type: "number" }, { type: "null" }] },
        where: { $ref: "#/$defs/point" },
      },
      $defs: { point: { type: "object", properties: { x: { type: "number" } } } },
    });
  });

  it("refuses keywords a grammar cannot enforce, naming where they are", () => {
    expect(refusal({ type: "object", properties: { code: { type: "string", pattern: "^a" } } })).toBe(
      "tools[0].function.parameters.properties.code.pattern",
    );
    expect(refusal({ type: "number", minimum: 1 })).toBe("tools[0].function.parameters.minimum");
    expect(refusal({ allOf: [] })).toBe("tools[0].function.parameters.allOf");
    expect(refusal({ type: "string", format: "email" })).toBe("tools[0].function.parameters.format");
    expect(refusal({ $ref: "https://example.com/s.json" })).toBe("tools[0].function.parameters.$ref");
  });
});

describe("tool options", () => {
  it("normalizes tool_choice and refuses one that cannot be honoured", () => {
    const tools = [{ type: "function" as const, function: { name: "f" } }];
    expect(chatOptionsOf({}).toolChoice).toBe("none");
    expect(chatOptionsOf({ tools }).toolChoice).toBe("auto");
    expect(chatOptionsOf({ tools, tool_choice: { type: "function", function: { name: "f" } } }).toolChoice).toEqual({
      name: "f",
    });
    expect(() => chatOptionsOf({ tools, tool_choice: { type: "function", function: { name: "g" } } })).toThrow(
      AppError,
    );
    expect(() => chatOptionsOf({ tool_choice: "required" })).toThrow(AppError);
  });

  it("assembles streamed deltas into whole calls", () => {
    expect(
      assembleToolCalls([
        { index: 0, id: "a", type: "function", function: { name: "f", arguments: "" } },
        { index: 1, id: "b", type: "function", function: { name: "g", arguments: "{}" } },
        { index: 0, function: { arguments: '{"x":' } },
        { index: 0, function: { arguments: "1}" } },
      ]),
    ).toEqual([
      { id: "a", type: "function", function: { name: "f", arguments: '{"x":1}' } },
      { id: "b", type: "function", function: { name: "g", arguments: "{}" } },
    ]);
  });
});
