// A Responses request as a chat completion request with tools, so any chat
// backend (local model, openai-compatible upstream) can answer it. The
// computer-use tool becomes a function tool `computer` whose arguments are the
// action union; its calls come back as computer_call items (`toOutputItems`).
import { actionSpaceOf, describeActionSpace } from "@/lib/models/responses/action-space";
import type { ChatCompletionRequest } from "@/lib/models/gateway/schemas";
import type { ComputerToolSpec, InputItem, ResponsesCreateRequest } from "@/lib/models/responses/schema";

/** The function name the computer-use tool is exposed under to a chat model. */
export const COMPUTER_TOOL_NAME = "computer";

type ChatMessage = ChatCompletionRequest["messages"][number];
type ChatTool = NonNullable<ChatCompletionRequest["tools"]>[number];

const point = { x: { type: "integer" }, y: { type: "integer" } };

/**
 * The keys a keypress may name: real key names every session kind presses (a free string let the
 * placeholder model write words no keyboard has, which /execute then refused).
 */
export const KEY_NAMES = [
  "Enter",
  "Tab",
  "Escape",
  "Backspace",
  "Delete",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "Control",
  "Shift",
  "Alt",
  ..."abcdefghijklmnopqrstuvwxyz0123456789",
];

/**
 * The action union as JSON Schema. No minimum/maximum: a grammar cannot
 * enforce them (the local backend refuses such schemas), so the bounds are in
 * the description (`describeActionSpace`: 0-1000 for `computer_use`, pixels for
 * `computer_use_preview`) and coordinates are clamped to that space on the way out.
 */
export function computerFunctionTool(spec: ComputerToolSpec): ChatTool {
  const action = (type: string, properties: Record<string, unknown> = {}) => ({
    type: "object",
    properties: { type: { const: type }, ...properties },
    required: ["type", ...Object.keys(properties)],
    additionalProperties: false,
  });
  return {
    type: "function",
    function: {
      name: COMPUTER_TOOL_NAME,
      description: describeActionSpace(actionSpaceOf(spec), spec.environment ?? "browser"),
      parameters: {
        anyOf: [
          action("click", { ...point, button: { enum: ["left", "right", "wheel", "back", "forward"] } }),
          action("double_click", point),
          // The same bounds as the action the answer is checked against (`actionSchema`): a call that breaks them is no
          // computer_call.
          action("drag", {
            path: {
              type: "array",
              minItems: 2,
              items: { type: "object", properties: point, required: ["x", "y"], additionalProperties: false },
            },
          }),
          action("keypress", { keys: { type: "array", minItems: 1, items: { enum: KEY_NAMES } } }),
          action("move", point),
          action("screenshot"),
          action("scroll", { ...point, scroll_x: { type: "integer" }, scroll_y: { type: "integer" } }),
          action("type", { text: { type: "string" } }),
          action("wait"),
        ],
      },
    },
  };
}

type UserContent = Extract<ChatMessage, { role: "user" }>["content"];

function userContent(content: Extract<InputItem, { type: "message" }>["content"]): UserContent {
  if (typeof content === "string") return content;
  return content.map((part) =>
    part.type === "input_image"
      ? {
          type: "image_url" as const,
          image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) },
        }
      : { type: "text" as const, text: part.type === "refusal" ? part.refusal : part.text },
  );
}

const textOnly = (content: Extract<InputItem, { type: "message" }>["content"]): string =>
  typeof content === "string"
    ? content
    : content.map((p) => (p.type === "refusal" ? p.refusal : p.type === "input_image" ? "" : p.text)).join("");

/**
 * Input items as chat messages. Calls join the assistant turn before them;
 * a screenshot (computer_call_output) cannot be a tool message's content, so
 * the tool message says so and the image follows as a user turn, after the
 * run of tool results (chat requires those to follow their calls directly).
 */
export function toChatMessages(instructions: string | null | undefined, items: InputItem[]): ChatMessage[] {
  const messages: ChatMessage[] = instructions ? [{ role: "system", content: instructions }] : [];
  let pendingImages: ChatMessage[] = [];
  const flushImages = () => {
    messages.push(...pendingImages);
    pendingImages = [];
  };
  const assistantTurn = () => {
    const last = messages.at(-1);
    if (last?.role === "assistant") return last;
    const turn: ChatMessage = { role: "assistant", content: null };
    messages.push(turn);
    return turn;
  };
  for (const item of items) {
    const isToolResult = item.type === "function_call_output" || item.type === "computer_call_output";
    if (!isToolResult) flushImages();
    switch (item.type) {
      case "message":
        if (item.role === "user") messages.push({ role: "user", content: userContent(item.content) });
        else if (item.role === "assistant") messages.push({ role: "assistant", content: textOnly(item.content) });
        else messages.push({ role: item.role, content: textOnly(item.content) });
        break;
      case "function_call":
      case "computer_call": {
        const turn = assistantTurn() as Extract<ChatMessage, { role: "assistant" }>;
        const fn =
          item.type === "function_call"
            ? { name: item.name, arguments: item.arguments }
            : { name: COMPUTER_TOOL_NAME, arguments: JSON.stringify(item.action) };
        turn.tool_calls = [...(turn.tool_calls ?? []), { id: item.call_id, type: "function", function: fn }];
        break;
      }
      case "function_call_output":
        messages.push({
          role: "tool",
          tool_call_id: item.call_id,
          content: typeof item.output === "string" ? item.output : item.output.map((p) => p.text).join(""),
        });
        break;
      case "computer_call_output":
        messages.push({
          role: "tool",
          tool_call_id: item.call_id,
          content: "Done. The screenshot after this action follows.",
        });
        pendingImages.push({
          role: "user",
          content: [
            { type: "text", text: `Screenshot after computer call ${item.call_id}:` },
            { type: "image_url", image_url: { url: item.output.image_url } },
          ],
        });
        break;
    }
  }
  flushImages();
  return messages;
}

/** The chat request a Responses request becomes; validated again by the chat schema before it runs. */
export function toChatRequest(body: ResponsesCreateRequest, items: InputItem[]): ChatCompletionRequest {
  const tools: ChatTool[] = (body.tools ?? []).map((tool) =>
    tool.type === "function"
      ? {
          type: "function",
          function: {
            name: tool.name,
            description: tool.description,
            parameters: tool.parameters,
            ...(tool.strict != null ? { strict: tool.strict } : {}),
          },
        }
      : computerFunctionTool(tool),
  );
  const choice = body.tool_choice;
  const toolChoice: ChatCompletionRequest["tool_choice"] =
    choice == null || typeof choice === "string"
      ? choice
      : choice.type === "function"
        ? { type: "function", function: { name: (choice as { name: string }).name } }
        : { type: "function", function: { name: COMPUTER_TOOL_NAME } };
  const format = body.text?.format;
  const responseFormat: ChatCompletionRequest["response_format"] =
    format?.type === "json_schema"
      ? {
          type: "json_schema",
          json_schema: {
            name: format.name,
            description: format.description,
            schema: format.schema,
            strict: format.strict,
          },
        }
      : (format ?? undefined);
  const request: ChatCompletionRequest = {
    model: body.model,
    messages: toChatMessages(body.instructions, items),
  };
  if (body.stream) request.stream = true;
  if (tools.length) request.tools = tools;
  if (toolChoice != null) request.tool_choice = toolChoice;
  if (body.parallel_tool_calls != null && tools.length) request.parallel_tool_calls = body.parallel_tool_calls;
  if (responseFormat && responseFormat.type !== "text") request.response_format = responseFormat;
  if (body.max_output_tokens != null) request.max_tokens = body.max_output_tokens;
  if (body.temperature != null) request.temperature = body.temperature;
  if (body.top_p != null) request.top_p = body.top_p;
  if (body.user != null) request.user = body.user;
  return request;
}
