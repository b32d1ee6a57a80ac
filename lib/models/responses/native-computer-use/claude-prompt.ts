// A /v1/responses conversation as Claude sees it with its own computer tool:
// computer_calls become `computer` tool_use blocks (a run of calls made from
// one Claude action folds back into that action), and each computer_call_output
// becomes the tool_result of its tool_use, the screenshot inside it (as the
// caller sent it: inline bytes, or a URL for the service to fetch).
import type {
  LanguageModelV3Message,
  LanguageModelV3ToolCallPart,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import type { ActionSpace } from "@/lib/models/responses/action-space";
import {
  cursorAfter,
  splitCallId,
  toClaudeAction,
  type CallerAction,
  type Point,
} from "@/lib/models/responses/native-computer-use/claude-actions";
import type { InputItem } from "@/lib/models/responses/schema";
import { imagePart, parseArguments } from "@/lib/models/upstream/ai-sdk/chat-prompt";

/** The name Claude's computer tool is declared under (the Messages API fixes it). */
export const CLAUDE_COMPUTER_TOOL = "computer";

type Content = Extract<InputItem, { type: "message" }>["content"];
type ToolResultContent = Extract<LanguageModelV3ToolResultPart["output"], { type: "content" }>["value"];

function partsOf(content: Content) {
  if (typeof content === "string") return [{ type: "text" as const, text: content }];
  return content.map((part) =>
    part.type === "input_image"
      ? imagePart(part.image_url)
      : { type: "text" as const, text: part.type === "refusal" ? part.refusal : part.text },
  );
}

const textOf = (content: Content) =>
  partsOf(content)
    .map((p) => (p.type === "text" ? p.text : ""))
    .join("");

/** A screenshot inside a tool_result: its bytes when inline, else its URL. */
function screenshotPart(url: string): ToolResultContent[number] {
  const part = imagePart(url);
  return typeof part.data === "string"
    ? { type: "image-data", data: part.data, mediaType: part.mediaType }
    : { type: "image-url", url };
}

export interface ClaudeConversation {
  prompt: LanguageModelV3Message[];
  /** Where the pointer last went (Claude pixels), for actions that name no point. */
  cursor: Point | undefined;
}

interface Run {
  tag: string | undefined;
  actions: CallerAction[];
  part: LanguageModelV3ToolCallPart;
  /** Where the pointer was before this run, for cursor_position's answer. */
  cursorBefore: Point | undefined;
}

export function claudeConversation(
  instructions: string | null | undefined,
  items: InputItem[],
  space: ActionSpace,
): ClaudeConversation {
  const system: string[] = instructions ? [instructions] : [];
  const prompt: LanguageModelV3Message[] = [];
  const toolNames = new Map<string, string>();
  const runs = new Map<string, Run>();
  let cursor: Point | undefined;
  const append = (message: LanguageModelV3Message) => {
    const last = prompt.at(-1);
    if (last && last.role === message.role) (last.content as unknown[]).push(...(message.content as unknown[]));
    else prompt.push(message);
  };
  const result = (toolUseId: string, output: LanguageModelV3ToolResultPart["output"]) => {
    const last = prompt.at(-1);
    const earlier =
      last?.role === "tool"
        ? last.content.find((p): p is LanguageModelV3ToolResultPart => "toolCallId" in p && p.toolCallId === toolUseId)
        : undefined;
    // A run of calls answers its tool_use once: with the screenshot after the last of them.
    if (earlier) earlier.output = output;
    else
      append({
        role: "tool",
        content: [{ type: "tool-result", toolCallId: toolUseId, toolName: toolNames.get(toolUseId) ?? "tool", output }],
      });
  };

  for (const item of items) {
    switch (item.type) {
      case "message":
        if (item.role === "system" || item.role === "developer") system.push(textOf(item.content));
        else if (item.role === "user") append({ role: "user", content: partsOf(item.content) });
        else append({ role: "assistant", content: [{ type: "text", text: textOf(item.content) }] });
        break;
      case "function_call":
        toolNames.set(item.call_id, item.name);
        append({
          role: "assistant",
          content: [
            { type: "tool-call", toolCallId: item.call_id, toolName: item.name, input: parseArguments(item.arguments) },
          ],
        });
        break;
      case "function_call_output":
        result(item.call_id, {
          type: "text",
          value: typeof item.output === "string" ? item.output : item.output.map((p) => p.text).join(""),
        });
        break;
      case "computer_call": {
        const { toolUseId, tag } = splitCallId(item.call_id);
        const action = item.action as CallerAction;
        let run = runs.get(toolUseId);
        if (!run) {
          const part: LanguageModelV3ToolCallPart = {
            type: "tool-call",
            toolCallId: toolUseId,
            toolName: CLAUDE_COMPUTER_TOOL,
            input: {},
          };
          run = { tag, actions: [], part, cursorBefore: cursor };
          runs.set(toolUseId, run);
          toolNames.set(toolUseId, CLAUDE_COMPUTER_TOOL);
          append({ role: "assistant", content: [part] });
        }
        run.actions.push(action);
        const input = toClaudeAction(run.actions, run.tag, space);
        run.part.input = input;
        cursor = cursorAfter(input, cursor);
        break;
      }
      case "computer_call_output": {
        const { toolUseId } = splitCallId(item.call_id);
        const run = runs.get(toolUseId);
        const position = run?.tag === "cursor_position" ? run.cursorBefore : undefined;
        const text: ToolResultContent =
          run?.tag === "cursor_position"
            ? [
                {
                  type: "text",
                  text: position ? `X=${position[0]},Y=${position[1]}` : "The cursor position is unknown.",
                },
              ]
            : [];
        result(toolUseId, { type: "content", value: [...text, screenshotPart(item.output.image_url)] });
        break;
      }
    }
  }
  if (system.length) prompt.unshift({ role: "system", content: system.join("\n\n") });
  return { prompt, cursor };
}
