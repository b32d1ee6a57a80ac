// Function tools and structured output in OpenAI's chat wire shapes (zod 4),
// shared by every backend and by any endpoint that translates to chat
// completions. Tool and message objects are loose: fields we do not read
// (`strict`, a message's `name`) still reach an upstream untouched.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A JSON Schema object, kept as sent (validated only as far as "an object"). */
export const jsonSchemaObject = z.record(z.string(), z.unknown(), { error: "must be a JSON Schema object" });

export const functionToolSchema = z.looseObject({
  type: z.literal("function", { error: "only function tools are supported (type: 'function')" }),
  function: z.looseObject({
    name: z.string({ error: "name is required" }).regex(TOOL_NAME, "name must be 1-64 letters, digits, _ or -"),
    description: z.string().nullish(),
    parameters: jsonSchemaObject.nullish(),
    strict: z.boolean().nullish(),
  }),
});

export const toolChoiceSchema = z.union(
  [
    z.enum(["none", "auto", "required"]),
    z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string().regex(TOOL_NAME) }) }),
  ],
  { error: "tool_choice must be none, auto, required or {type: 'function', function: {name}}" },
);

export const toolCallSchema = z.looseObject({
  id: z.string({ error: "id is required" }).min(1, "id is required"),
  type: z.literal("function", { error: "type must be 'function'" }),
  function: z.looseObject({
    name: z.string({ error: "name is required" }),
    arguments: z.string({ error: "arguments must be a JSON string" }),
  }),
});

export const responseFormatSchema = z.discriminatedUnion(
  "type",
  [
    z.looseObject({ type: z.literal("text") }),
    z.looseObject({ type: z.literal("json_object") }),
    z.looseObject({
      type: z.literal("json_schema"),
      json_schema: z.looseObject({
        name: z.string({ error: "name is required" }).regex(TOOL_NAME, "name must be 1-64 letters, digits, _ or -"),
        description: z.string().nullish(),
        schema: jsonSchemaObject.nullish(),
        strict: z.boolean().nullish(),
      }),
    }),
  ],
  { error: "response_format.type must be text, json_object or json_schema" },
);

export type FunctionTool = z.infer<typeof functionToolSchema>;
export type ToolChoice = z.infer<typeof toolChoiceSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;
export type ResponseFormat = z.infer<typeof responseFormatSchema>;

/** What a chat generation may do besides answering text. */
export interface ChatOptions {
  tools: FunctionTool[];
  /** Normalized: "none" when no tools were given, "auto" when tools came without a choice. */
  toolChoice: "none" | "auto" | "required" | { name: string };
  parallelToolCalls: boolean;
  responseFormat?: ResponseFormat;
}

/** One streamed piece of a tool call, as OpenAI streams it (id and name on a call's first delta). */
export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: "function";
  function: { name?: string; arguments?: string };
}

export function chatOptionsOf(body: {
  tools?: FunctionTool[] | null;
  tool_choice?: ToolChoice | null;
  parallel_tool_calls?: boolean | null;
  response_format?: ResponseFormat | null;
}): ChatOptions {
  const tools = body.tools ?? [];
  const choice = body.tool_choice;
  const toolChoice: ChatOptions["toolChoice"] =
    typeof choice === "object" && choice
      ? { name: choice.function.name }
      : (choice ?? (tools.length ? "auto" : "none"));
  // A choice that cannot be honoured is the caller's mistake, not a reason to answer without tools.
  if (typeof toolChoice === "object" && !tools.some((t) => t.function.name === toolChoice.name)) {
    throw new AppError(
      "invalid_request",
      `tool_choice names the function '${toolChoice.name}', which is not in tools`,
      { param: "tool_choice", detail: "invalid_tool_choice" },
    );
  }
  if (toolChoice === "required" && !tools.length) {
    throw new AppError("invalid_request", "tool_choice 'required' needs at least one tool in tools", {
      param: "tool_choice",
      detail: "invalid_tool_choice",
    });
  }
  return {
    tools,
    toolChoice,
    parallelToolCalls: body.parallel_tool_calls ?? true,
    responseFormat: body.response_format ?? undefined,
  };
}

/** Joins streamed deltas into whole calls (ids and names from the first delta of each index). */
export function assembleToolCalls(deltas: readonly ToolCallDelta[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const d of deltas) {
    const call = (calls[d.index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
    if (d.id) call.id = d.id;
    if (d.function.name) call.function.name += d.function.name;
    if (d.function.arguments) call.function.arguments += d.function.arguments;
  }
  return calls.filter(Boolean);
}
