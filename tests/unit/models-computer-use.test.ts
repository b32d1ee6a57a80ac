// @needs nothing
// Pure logic behind computer use on Cabin's models: the lean tool prompt of the
// local model, zod 4's integer bounds in schemas, the number grammar that keeps
// them, model aliases, and what each backend does with image parts.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseModelAliases } from "@/lib/models/aliases";
import { checkChatCapabilities, resolveCapabilities } from "@/lib/models/generation/capabilities";
import { rewriteNumbers } from "@/lib/models/local/chat-run";
import { toGrammarSchema } from "@/lib/models/local/json-schema-grammar";
import { callInstructions, signatureOf } from "@/lib/models/local/tool-prompt";
import { computerFunctionTool } from "@/lib/models/responses/to-chat";
import type { FunctionTool } from "@/lib/models/generation/tools";

describe("the local model's tool prompt", () => {
  const computer = computerFunctionTool({
    type: "computer_use",
    display_width: 1280,
    display_height: 720,
    environment: "desktop",
  }) as FunctionTool;
  it("writes a schema as a short signature", () => {
    expect(
      signatureOf({
        type: "object",
        properties: { a: { type: "integer" }, b: { type: "array", items: { enum: ["x", "y"] } } },
        required: ["a"],
      }),
    ).toBe('{a: int, b?: ("x"|"y")[]}');
    expect(signatureOf(computer.function.parameters)).toContain(
      '{type: "click", x: int, y: int, button: "left"|"right"|"wheel"|"back"|"forward"} | {type: "double_click", x: ' +
        "int, y: int}",
    );
  });
  it("keeps the computer tool and a done function to a few hundred characters, not the JSON Schema", () => {
    const done = {
      type: "function",
      function: {
        name: "done",
        description: "Call this when the task is complete.",
        parameters: { type: "object", properties: { message: { type: "string" } } },
      },
    } as FunctionTool;
    const prompt = callInstructions([computer, done]);
    expect(prompt).toContain("- done({message?: string}) Call this when the task is complete.");
    expect(prompt).toContain("0-1000 on both axes");
    expect(prompt.length).toBeLessThan(JSON.stringify(computer.function.parameters).length);
  });
});

describe("integer bounds (zod 4's .int())", () => {
  const schema = z.toJSONSchema(z.object({ count: z.number().int(), at: z.number().int().nonnegative() }));
  it("accepts the safe-integer bounds zod writes, and still refuses a bound a grammar number could break", () => {
    expect((schema.properties as Record<string, { maximum: number }>).count.maximum).toBe(Number.MAX_SAFE_INTEGER);
    expect(() =>
      toGrammarSchema(
        { type: "object", properties: { count: (schema.properties as Record<string, unknown>).count } },
        "schema",
      ),
    ).not.toThrow();
    expect(() => toGrammarSchema(schema, "schema")).toThrow("schema.properties.at.minimum");
    expect(() => toGrammarSchema({ type: "integer", exclusiveMaximum: 1e15 }, "s")).not.toThrow();
    expect(() => toGrammarSchema({ type: "integer", maximum: 1e14 }, "s")).toThrow("s.maximum");
  });
  it("writes numbers of at most 15 integer digits and no exponent, so those bounds hold", () => {
    const rule = '"-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})? ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?';
    expect(rewriteNumbers(`number ::= ${rule}`)).toBe('number ::= "-"? ("0" | [1-9] [0-9]{0,14}) ("." [0-9]{1,16})?');
  });
});

describe("model aliases", () => {
  const ids = ["svc.sm-1", "svc.cua-fast"];
  it("by default serves the Lightcone computer-use id with the local computer-use model, when it exists", () => {
    expect([...parseModelAliases(undefined, ids, "svc")]).toEqual([["tzafon.northstar-cua-fast", "svc.cua-fast"]]);
    expect(parseModelAliases(undefined, ["up.only"], "svc").size).toBe(0);
    expect(parseModelAliases("{}", ids, "svc").size).toBe(0);
  });
  it("maps configured ids and refuses aliases that shadow a model or name no model", () => {
    expect(parseModelAliases('{"gpt-4o":"svc.sm-1"}', ids, "svc").get("gpt-4o")).toBe("svc.sm-1");
    expect(() => parseModelAliases('{"svc.sm-1":"svc.cua-fast","x":"svc.nope"}', ids, "svc")).toThrow(
      /MODEL_ALIASES.svc.sm-1: is already a model id[\s\S]*MODEL_ALIASES.x: 'svc.nope' is not a configured model/,
    );
    expect(() => parseModelAliases("{nope", ids, "svc")).toThrow("MODEL_ALIASES is not valid JSON");
  });
});

describe("image parts by backend", () => {
  const withImage = {
    model: "m",
    messages: [
      {
        role: "user" as const,
        content: [{ type: "image_url" as const, image_url: { url: "data:image/png;base64,AAAA" } }],
      },
    ],
  };
  it("a text-only local model cannot see but accepts them; an upstream configured without vision refuses them", () => {
    const local = resolveCapabilities("local");
    expect(local).toMatchObject({ vision: false, image_inputs: "ignored" });
    expect(() => checkChatCapabilities("svc.cua-fast", local, withImage)).not.toThrow();
    const blind = resolveCapabilities("openai-compatible", { vision: false });
    expect(blind.image_inputs).toBe("refused");
    expect(() => checkChatCapabilities("up.blind", blind, withImage)).toThrow("does not support image inputs");
    expect(resolveCapabilities("openai-compatible").image_inputs).toBe("seen");
  });
});
