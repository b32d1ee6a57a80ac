// The request body of POST /v1/responses (OpenAI's Responses format, zod 4).
// Strict at the top like chat: an unknown parameter is a 400 naming it. Input
// items are loose, so the ids and statuses a client echoes back from a
// previous output (`id`, `status`) are accepted, and output items replay as input.
import { z } from "zod";
import { jsonSchemaObject } from "@/lib/models/generation/tools";

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

const inputText = z.looseObject({ type: z.literal("input_text"), text: z.string({ error: "text is required" }) });
const outputText = z.looseObject({ type: z.literal("output_text"), text: z.string({ error: "text is required" }) });
const refusal = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });
const inputImage = z.looseObject({
  type: z.literal("input_image"),
  image_url: z
    .string({ error: "image_url is required (file_id is not supported)" })
    .regex(/^(data:|https?:\/\/)/i, "image_url must be a data: or http(s) URL"),
  detail: z.enum(["auto", "low", "high"], { error: "detail must be auto, low or high" }).nullish(),
});
const contentPart = z.discriminatedUnion("type", [inputText, inputImage, outputText, refusal], {
  error: "content parts are input_text, input_image (with image_url), output_text or refusal",
});

const messageItem = z.looseObject({
  type: z.literal("message"),
  role: z.enum(["user", "system", "developer", "assistant"], {
    error: "role must be user, system, developer or assistant",
  }),
  content: z.union([z.string(), z.array(contentPart)], {
    error: "content must be a string or an array of content parts",
  }),
});

/** What a computer_call's action may be: OpenAI's computer-use action union. */
export const COMPUTER_ACTIONS = [
  "click",
  "double_click",
  "drag",
  "keypress",
  "move",
  "screenshot",
  "scroll",
  "type",
  "wait",
] as const;
/** The Lightcone SDK's further action types, which its models emit and its clients replay as input. */
const LIGHTCONE_ACTIONS = ["point_and_type", "mouse_down", "mouse_up", "key_down", "key_up"] as const;
const REPLAYED_ACTIONS = [...COMPUTER_ACTIONS, ...LIGHTCONE_ACTIONS];

const computerAction = z.looseObject({
  type: z.enum(REPLAYED_ACTIONS, { error: `action.type must be one of ${REPLAYED_ACTIONS.join(", ")}` }),
});

const callId = z.string({ error: "call_id is required" }).min(1, "call_id is required");

const functionCallItem = z.looseObject({
  type: z.literal("function_call"),
  call_id: callId,
  name: z.string({ error: "name is required" }),
  arguments: z.string({ error: "arguments must be a JSON string" }),
});
const functionCallOutputItem = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: callId,
  output: z.union([z.string(), z.array(z.looseObject({ type: z.literal("input_text"), text: z.string() }))], {
    error: "output must be a string",
  }),
});
const computerCallItem = z.looseObject({ type: z.literal("computer_call"), call_id: callId, action: computerAction });
const computerCallOutputItem = z.looseObject({
  type: z.literal("computer_call_output"),
  call_id: callId,
  // OpenAI's clients send computer_screenshot; the Lightcone examples send the screenshot as an input_image part.
  output: z.looseObject({
    type: z.enum(["computer_screenshot", "input_image"], {
      error: "output.type must be computer_screenshot or input_image",
    }),
    image_url: z
      .string({ error: "output.image_url is required" })
      .regex(/^(data:|https?:\/\/)/i, "output.image_url must be a data: or http(s) URL"),
  }),
});

/** Items may omit `type` when they are messages ({role, content}), as the clients' EasyInputMessage does. */
const inputItem = z.preprocess(
  (value) =>
    value && typeof value === "object" && !("type" in value) && "role" in value ? { ...value, type: "message" } : value,
  z.discriminatedUnion(
    "type",
    [messageItem, functionCallItem, functionCallOutputItem, computerCallItem, computerCallOutputItem],
    {
      error: "input items are message, function_call, function_call_output, computer_call or computer_call_output",
    },
  ),
);

export const functionToolSpec = z.looseObject({
  type: z.literal("function"),
  name: z.string({ error: "name is required" }).regex(NAME, "name must be 1-64 letters, digits, _ or -"),
  description: z.string().nullish(),
  parameters: jsonSchemaObject.nullish(),
  strict: z.boolean().nullish(),
});

const displaySize = (name: string) =>
  z
    .number({ error: `${name} is required` })
    .int(`${name} must be an integer`)
    .min(1, `${name} must be at least 1`)
    .max(10_000, `${name} must be at most 10000`);

/** Every `environment` the public SDKs send; it only names the screen to the model (docs/computer-use.md). */
export const COMPUTER_ENVIRONMENTS = ["browser", "desktop", "linux", "ubuntu", "mac", "windows"] as const;

/**
 * `computer_use` (Lightcone) answers coordinates in a 0-1000 space on both axes; `computer_use_preview`
 * (OpenAI) in pixels of display_width x display_height (`actionSpaceOf`).
 */
export const computerToolSpec = z.looseObject({
  type: z.enum(["computer_use_preview", "computer_use"]),
  display_width: displaySize("display_width"),
  display_height: displaySize("display_height"),
  environment: z
    .enum(COMPUTER_ENVIRONMENTS, { error: `environment must be one of ${COMPUTER_ENVIRONMENTS.join(", ")}` })
    .nullish(),
});

const toolSpec = z.discriminatedUnion("type", [functionToolSpec, computerToolSpec], {
  error:
    "tools are {type: 'function', name, parameters} or {type: 'computer_use' | 'computer_use_preview', " +
    "display_width, display_height, environment}",
});

const toolChoice = z.union(
  [
    z.enum(["none", "auto", "required"]),
    z.looseObject({ type: z.literal("function"), name: z.string().regex(NAME) }),
    z.looseObject({ type: z.enum(["computer_use_preview", "computer_use"]) }),
  ],
  {
    error:
      "tool_choice must be none, auto, required, {type: 'function', name}, {type: 'computer_use'} or {type: " +
      "'computer_use_preview'}",
  },
);

const textFormat = z.discriminatedUnion(
  "type",
  [
    z.looseObject({ type: z.literal("text") }),
    z.looseObject({ type: z.literal("json_object") }),
    z.looseObject({
      type: z.literal("json_schema"),
      name: z.string({ error: "name is required" }).regex(NAME, "name must be 1-64 letters, digits, _ or -"),
      description: z.string().nullish(),
      schema: jsonSchemaObject,
      strict: z.boolean().nullish(),
    }),
  ],
  { error: "text.format.type must be text, json_object or json_schema" },
);

export const responsesCreateSchema = z.strictObject({
  model: z.string({ error: "model is required" }).min(1, "model is required"),
  input: z.union([z.string(), z.array(inputItem).min(1, "input must not be empty")], {
    error: "input must be a string or an array of items",
  }),
  instructions: z.string({ error: "instructions must be a string" }).nullish(),
  tools: z.array(toolSpec, { error: "tools must be an array" }).max(128, "at most 128 tools").nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean({ error: "parallel_tool_calls must be a boolean" }).nullish(),
  max_output_tokens: z
    .number()
    .int("max_output_tokens must be an integer")
    .min(1, "max_output_tokens must be at least 1")
    .nullish(),
  temperature: z
    .number({ error: "temperature must be a number" })
    .min(0, "temperature must be between 0 and 2")
    .max(2, "temperature must be between 0 and 2")
    .nullish(),
  top_p: z
    .number({ error: "top_p must be a number" })
    .gt(0, "top_p must be in (0, 1]")
    .max(1, "top_p must be in (0, 1]")
    .nullish(),
  text: z.looseObject({ format: textFormat.nullish() }).nullish(),
  store: z.boolean({ error: "store must be a boolean" }).nullish(),
  previous_response_id: z.string({ error: "previous_response_id must be a string" }).min(1).nullish(),
  stream: z.boolean({ error: "stream must be a boolean" }).nullish(),
  metadata: z.record(z.string(), z.string(), { error: "metadata must map strings to strings" }).nullish(),
  user: z.string({ error: "user must be a string" }).nullish(),
  truncation: z.enum(["disabled", "auto"], { error: "truncation must be disabled or auto" }).nullish(),
  // Background runs are not offered: the answer is always produced in the request.
  background: z.literal(false, { error: "background responses are not supported by this server" }).nullish(),
});

export type ResponsesCreateRequest = z.infer<typeof responsesCreateSchema>;
export type InputItem = z.infer<typeof inputItem>;
export type ComputerToolSpec = z.infer<typeof computerToolSpec>;
