// Claude's own computer tool for a /v1/responses request that carries
// Lightcone's `computer_use` or OpenAI's `computer_use_preview` tool and runs
// on an anthropic backend: the tool is declared to Claude with the caller's
// display, Claude's actions come back as the caller's computer_call actions in
// its coordinate space, and its function tools stay function tools
// (docs/computer-use.md "Claude"). The provider package adds the beta header
// each tool version needs (computer-use-2025-01-24, computer-use-2025-11-24).
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { actionSpaceOf } from "@/lib/models/responses/action-space";
import {
  cursorAfter,
  toCallerActions,
  type ClaudeAction,
} from "@/lib/models/responses/native-computer-use/claude-actions";
import { CLAUDE_COMPUTER_TOOL, claudeConversation } from "@/lib/models/responses/native-computer-use/claude-prompt";
import type { ComputerToolSpec } from "@/lib/models/responses/schema";
import { COMPUTER_TOOL_NAME } from "@/lib/models/responses/to-chat";
import type { ChatOptions } from "@/lib/models/generation/tools";
import { functionTools, parseArguments, toToolChoice } from "@/lib/models/upstream/ai-sdk/chat-prompt";
import type { TranslatedCall } from "@/lib/models/upstream/ai-sdk/sdk-backend";
import type { ResponsesTurn } from "@/lib/models/types";

export type ClaudeComputerVersion = "computer_20250124" | "computer_20251124";

/**
 * The tool version a Claude model takes: computer_20251124 from Claude Opus 4.5 and every 4.6 or
 * later model, computer_20250124 for the Claude 4 models before them and Claude 3.7 Sonnet.
 */
export function claudeComputerVersion(upstreamModel: string): ClaudeComputerVersion {
  const match = /claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?=-|$|@)/.exec(upstreamModel);
  if (!match) return "computer_20250124";
  const major = Number(match[2]);
  const minor = Number(match[3] ?? 0);
  const newer = major > 4 || (major === 4 && (minor >= 6 || (match[1] === "opus" && minor >= 5)));
  return newer ? "computer_20251124" : "computer_20250124";
}

export interface ClaudeComputerCall {
  options: Pick<LanguageModelV3CallOptions, "prompt" | "tools" | "toolChoice">;
  translate: { tools: ReadonlySet<string>; calls(toolUseId: string, input: string): TranslatedCall[] };
}

/** Undefined when the request carries no computer tool: it then runs as any chat request. */
export function claudeComputerCall(
  turn: ResponsesTurn,
  upstreamModel: string,
  chat: ChatOptions,
): ClaudeComputerCall | undefined {
  const spec = turn.body.tools?.find((tool): tool is ComputerToolSpec => tool.type !== "function");
  if (!spec) return undefined;
  const space = actionSpaceOf(spec);
  const conversation = claudeConversation(turn.body.instructions, turn.items, space);
  let cursor = conversation.cursor;
  const functions = functionTools({ ...chat, tools: chat.tools.filter((t) => t.function.name !== COMPUTER_TOOL_NAME) });
  const computer = {
    type: "provider" as const,
    id: `anthropic.${claudeComputerVersion(upstreamModel)}` as const,
    name: CLAUDE_COMPUTER_TOOL,
    args: { displayWidthPx: space.width, displayHeightPx: space.height },
  };
  return {
    options: {
      prompt: conversation.prompt,
      tools: [...functions, computer],
      toolChoice:
        typeof chat.toolChoice === "object" && chat.toolChoice.name === COMPUTER_TOOL_NAME
          ? { type: "tool", toolName: CLAUDE_COMPUTER_TOOL }
          : toToolChoice(chat.toolChoice),
    },
    translate: {
      tools: new Set([CLAUDE_COMPUTER_TOOL]),
      calls(toolUseId, input) {
        const action = parseArguments(input) as ClaudeAction;
        const calls = toCallerActions(action, space, cursor).map(({ suffix, action: caller }) => ({
          id: `${toolUseId}${suffix}`,
          name: COMPUTER_TOOL_NAME,
          arguments: JSON.stringify(caller),
        }));
        cursor = cursorAfter(action, cursor);
        return calls;
      },
    },
  };
}
