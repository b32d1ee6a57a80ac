// One model call of a task's loop, through the model API's front door
// (`respond`, the code path of POST /v1/responses): same model registry,
// backends, metering and usage rows, billed to the task's organization and
// key, admitted as /v1 admits a call (budgets, the key's and the
// organization's rate limits); its cost comes back as a field. The request
// is what the public examples send: Lightcone's `computer_use` tool plus a
// `done` function, `tool_choice: "required"`.
import { respond, type InputItem, type ModelPrincipal } from "@/lib/models/model-calls";
import { getModel } from "@/lib/models/registry";
import { randomHex } from "@/lib/random-id";
import { parseRequestHuman, REQUEST_HUMAN_TOOL } from "@/lib/agent/tools/request-human";

export const DONE_TOOL = {
  type: "function",
  name: "done",
  description: "Call this when the task is finished (or cannot be done), with the result or answer for the user.",
  parameters: {
    type: "object",
    properties: { result: { type: "string", description: "The outcome or answer, in a sentence or two." } },
    required: ["result"],
    additionalProperties: false,
  },
} as const;

const SYSTEM_PROMPT =
  "You operate a computer to carry out the user's task. Each turn you see a screenshot; answer with one " +
  "computer action " +
  "(coordinates in a 0-1000 space on both axes) or call done with the result once the task is finished.";
/** A model with its own computer tool (Claude's) is told its screen in pixels by that tool: no 0-1000 rule. */
const NATIVE_TOOL_PROMPT =
  "You operate a computer to carry out the user's task. Each turn you see a screenshot; answer with computer actions " +
  "or call done with the result once the task is finished.";

/**
 * Whether the model answers the computer tool with its own (Claude's computer tool on an anthropic backend,
 * lib/models/responses/native-computer-use): the request is the same, `createResponse` offers the native tool.
 */
export function hasNativeComputerTool(model: string, organizationId: string): boolean {
  return getModel(model, organizationId).backend.kind === "anthropic";
}

/**
 * The computer tool the loop offers: OpenAI's `computer_use_preview` (pixels) to a native Responses
 * upstream configured with it (MODELS `computerTool`), Lightcone's `computer_use` (0-1000) otherwise.
 */
export function computerToolOf(model: string, organizationId: string): "computer_use" | "computer_use_preview" {
  const first = getModel(model, organizationId).backends[0]!;
  return first.responses === "native" ? first.computerTool : "computer_use";
}

export interface TurnRequest {
  principal: ModelPrincipal;
  model: string;
  input: InputItem[];
  display: { width: number; height: number };
  environment: "browser" | "desktop";
  temperature: number | null;
  systemPrompt: string | null;
  signal: AbortSignal;
  /** Function tools beside the computer tool and `done` (lib/agent/tools/), answered by the loop. */
  tools?: Record<string, unknown>[];
}

export interface TurnOutcome {
  /** Items to append to the conversation as they came (the next call carries the whole history). */
  output: InputItem[];
  /** In order; a native tool's one action may come as a short run of calls (Claude's triple_click, hold_key). */
  computerCalls: { call_id: string; action: Record<string, unknown> }[];
  /** True when the calls' coordinates are pixels (`computer_use_preview`), false for the 0-1000 space. */
  pixels: boolean;
  done: { result: string } | null;
  /** The model asked a person to take over (request_human), with the call to answer. */
  humanRequest: { call_id: string; reason: string } | null;
  /** Calls of the extra function `tools`, in order. */
  functionCalls: { call_id: string; name: string; arguments: string }[];
  text: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

function parseDone(args: string): { result: string } {
  try {
    const value = JSON.parse(args) as { result?: unknown };
    return { result: typeof value.result === "string" ? value.result : JSON.stringify(value.result ?? null) };
  } catch {
    return { result: args };
  }
}

export async function modelTurn(turn: TurnRequest): Promise<TurnOutcome> {
  const org = turn.principal.organizationId;
  const tool = computerToolOf(turn.model, org);
  const prompt = hasNativeComputerTool(turn.model, org) || tool !== "computer_use" ? NATIVE_TOOL_PROMPT : SYSTEM_PROMPT;
  const { response, costUsd } = await respond(
    { principal: turn.principal, requestId: `req_agent_${randomHex(8)}`, signal: turn.signal },
    {
      model: turn.model,
      instructions: turn.systemPrompt ? `${prompt}\n\n${turn.systemPrompt}` : prompt,
      input: turn.input,
      tools: [
        {
          type: tool,
          display_width: turn.display.width,
          display_height: turn.display.height,
          environment: turn.environment,
        },
        DONE_TOOL,
        REQUEST_HUMAN_TOOL,
        ...(turn.tools ?? []),
      ],
      tool_choice: "required",
      parallel_tool_calls: false,
      store: false,
      ...(turn.temperature === null ? {} : { temperature: turn.temperature }),
    },
  );
  const computerCalls: TurnOutcome["computerCalls"] = [];
  let done: TurnOutcome["done"] = null;
  let humanRequest: TurnOutcome["humanRequest"] = null;
  const functionCalls: TurnOutcome["functionCalls"] = [];
  // `output_text` is a convenience some upstreams leave out: the message items are the source.
  let text = "";
  for (const item of response.output) {
    const entry = item as Record<string, unknown>;
    if (entry.type === "message" && Array.isArray(entry.content)) {
      for (const part of entry.content as { type?: string; text?: string }[])
        if (part.type === "output_text" && part.text) text += part.text;
    }
    if (entry.type === "computer_call") {
      computerCalls.push({ call_id: String(entry.call_id), action: entry.action as Record<string, unknown> });
    } else if (entry.type === "function_call" && entry.name === "done" && !done) {
      done = parseDone(String(entry.arguments ?? ""));
    } else if (entry.type === "function_call" && entry.name === "request_human" && !humanRequest) {
      humanRequest = { call_id: String(entry.call_id), ...parseRequestHuman(String(entry.arguments ?? "")) };
    } else if (entry.type === "function_call" && entry.name !== "done" && entry.name !== "request_human") {
      functionCalls.push({
        call_id: String(entry.call_id),
        name: String(entry.name),
        arguments: String(entry.arguments ?? ""),
      });
    }
  }
  return {
    output: response.output,
    computerCalls,
    pixels: tool === "computer_use_preview",
    done,
    humanRequest,
    functionCalls,
    text: text || response.output_text || "",
    inputTokens: response.usage?.input_tokens ?? 0,
    outputTokens: response.usage?.output_tokens ?? 0,
    costUsd,
  };
}
