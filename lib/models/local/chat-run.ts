// One chat generation on the local model, with tools and structured output:
// - no tools (or tool_choice "none"): text, grammar-constrained to the schema
//   when response_format asks for JSON;
// - "auto": node-llama-cpp's own function calling (the chat wrapper's syntax;
//   arguments grammar-constrained), so the model chooses text or calls;
// - "required" or a named function: the name is chosen under a grammar (when
//   more than one tool qualifies), then the arguments are generated under the
//   tool's schema grammar: the call always parses and validates.
// Tool calls stream as OpenAI's deltas: index, id, type and name first, then
// argument fragments.
import { randomBytes } from "node:crypto";
import type {
  ChatHistoryItem,
  ChatModelFunctionCall,
  ChatModelFunctions,
  GbnfJsonSchema,
  LlamaChat,
  Token,
} from "node-llama-cpp";
import { AppError } from "@/lib/api/errors";
import type { PushGeneration } from "@/lib/models/generation/generation";
import { JSON_OBJECT_GBNF, toGrammarSchema } from "@/lib/models/local/json-schema-grammar";
import { callInstructions } from "@/lib/models/local/tool-prompt";
import type { LoadedModel } from "@/lib/models/local/runtime";
import type { ChatOptions, FunctionTool } from "@/lib/models/generation/tools";
import type { ChatMessage } from "@/lib/models/types";

export interface ChatRunOptions {
  maxTokens: number;
  temperature: number;
  topP?: number;
  seed?: number;
  customStopTriggers?: string[];
  signal: AbortSignal;
  stopOnAbortSignal: boolean;
  onTextChunk: (text: string) => void;
  onToken: (tokens: Token[]) => void;
  repeatPenalty?: { frequencyPenalty?: number; presencePenalty?: number };
  tokenBias?: () => import("node-llama-cpp").TokenBias;
}

const parseOr = (text: string) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

export const newToolCallId = () => `call_${randomBytes(12).toString("hex")}`;

/** node-llama-cpp's history: tool results join the call they answer (by tool_call_id). */
export function toHistory(messages: ChatMessage[], instructions?: string): ChatHistoryItem[] {
  const results = new Map(
    messages.filter((m) => m.role === "tool" && m.toolCallId).map((m) => [m.toolCallId!, m.content]),
  );
  const answered = new Set<string>();
  const history: ChatHistoryItem[] = instructions ? [{ type: "system", text: instructions }] : [];
  for (const m of messages) {
    if (m.role === "system") history.push({ type: "system", text: m.content });
    else if (m.role === "user") history.push({ type: "user", text: m.content });
    else if (m.role === "assistant") {
      const calls = (m.toolCalls ?? []).map((c): ChatModelFunctionCall => {
        answered.add(c.id);
        return {
          type: "functionCall",
          name: c.function.name,
          params: parseOr(c.function.arguments),
          result: parseOr(results.get(c.id) ?? ""),
        };
      });
      history.push({ type: "model", response: [...(m.content ? [m.content] : []), ...calls] });
    } else if (!m.toolCallId || !answered.has(m.toolCallId)) {
      // A tool result whose call is not in the conversation: still shown to the model.
      history.push({ type: "user", text: `Tool result (${m.toolCallId ?? "unknown call"}): ${m.content}` });
    }
  }
  // An empty model turn at the end asks for a new reply (never continues the last one).
  history.push({ type: "model", response: [] });
  return history;
}

/**
 * node-llama-cpp's number rule allows exponents up to 16 digits ("5E907"),
 * which JSON.parse reads as Infinity and no schema accepts: the rule is
 * rebuilt without them (plain decimals cover every finite value an agent needs),
 * and with at most 15 integer digits, so every number is a safe integer's size
 * and the safe-integer bounds zod writes hold (`GRAMMAR_NUMBER_LIMIT`).
 */
const NUMBER_EXPONENT = ' ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?';
const INTEGER_DIGITS = '("0" | [1-9] [0-9]{0,15})';
const SAFE_INTEGER_DIGITS = '("0" | [1-9] [0-9]{0,14})';

/** node-llama-cpp's grammar text for `schema`, with numbers as described above. */
export function rewriteNumbers(grammar: string): string {
  return grammar.split(NUMBER_EXPONENT).join("").split(INTEGER_DIGITS).join(SAFE_INTEGER_DIGITS);
}

async function grammarFor(loaded: LoadedModel, schema: GbnfJsonSchema) {
  const { llama } = loaded.model;
  // The generic type of createGrammarForJsonSchema is built for literal schemas; ours are built at run time.
  const json = await llama.createGrammarForJsonSchema(schema as { type: "object" });
  const grammar = rewriteNumbers(json.grammar);
  return grammar === json.grammar ? json : llama.createGrammar({ grammar });
}

const paramsOf = (tool: FunctionTool, i: number): GbnfJsonSchema =>
  tool.function.parameters
    ? toGrammarSchema(tool.function.parameters, `tools[${i}].function.parameters`)
    : { type: "object", properties: {} };

/** Prepares a run: converts every schema first, so a bad one is a 400 before any work. */
export function prepareLocalChat(loaded: LoadedModel, messages: ChatMessage[], chat: ChatOptions) {
  const tools = chat.toolChoice === "none" ? [] : chat.tools;
  const grammars = tools.map(paramsOf);
  const format = chat.responseFormat;
  const formatGrammar: GbnfJsonSchema | string | undefined =
    format?.type === "json_object"
      ? JSON_OBJECT_GBNF
      : format?.type === "json_schema"
        ? toGrammarSchema(format.json_schema.schema ?? { type: "object" }, "response_format.json_schema.schema")
        : undefined;
  if (chat.toolChoice === "auto" && tools.length && formatGrammar) {
    throw new AppError(
      "invalid_request",
      "The local model cannot combine tool_choice 'auto' with a JSON response_format; use one of them",
      {
        param: "response_format",
        detail: "unsupported_combination",
      },
    );
  }
  const forced = chat.toolChoice === "required" || typeof chat.toolChoice === "object";
  const candidates = typeof chat.toolChoice === "object" ? [chat.toolChoice.name] : tools.map((t) => t.function.name);
  const functions: ChatModelFunctions | undefined =
    chat.toolChoice === "auto" && tools.length
      ? Object.fromEntries(
          tools.map((t, i) => [
            t.function.name,
            { description: t.function.description ?? undefined, params: grammars[i] },
          ]),
        )
      : undefined;
  // Names are ASCII (`TOOL_NAME`): at most one token per character, plus two quotes and the grammar's four closing
  // newlines.
  const longestName = Math.max(0, ...candidates.map((name) => name.length)) + 6;
  const instructions = forced ? callInstructions(tools.filter((t) => candidates.includes(t.function.name))) : undefined;
  const history = toHistory(messages, instructions);
  const promptTokens = loaded.chatWrapper
    .generateContextState({
      chatHistory: history,
      availableFunctions: functions,
      documentFunctionParams: functions ? true : undefined,
    })
    .contextText.tokenize(loaded.model.tokenizer).length;

  async function start(llamaChat: LlamaChat, options: ChatRunOptions, generation: PushGeneration): Promise<string> {
    const { onTextChunk: _text, ...quiet } = options;
    if (forced) {
      let used = 0;
      const counting = { ...quiet, onToken: (t: Token[]) => ((used += t.length), options.onToken(t)) };
      let name = candidates[0]!;
      if (candidates.length > 1) {
        const grammar = await grammarFor(loaded, { enum: candidates });
        const picked = await llamaChat.generateResponse(history, {
          ...counting,
          grammar,
          maxTokens: Math.min(options.maxTokens, longestName),
        });
        if (picked.metadata.stopReason === "abort") return "abort";
        // The grammar ends a value with four newlines, which the limit may cut: the name is whatever
        // parsed. A name the limit cut (`"co`) is no name: the answer ends there, as `length`.
        const chosen = parseOr(picked.response.trim());
        if (typeof chosen !== "string" || !candidates.includes(chosen)) return "maxTokens";
        name = chosen;
      }
      const index = tools.findIndex((t) => t.function.name === name);
      generation.pushToolCalls([
        { index: 0, id: newToolCallId(), type: "function", function: { name, arguments: "" } },
      ]);
      if (options.maxTokens - used <= 0) return "maxTokens";
      const grammar = await grammarFor(loaded, grammars[index]!);
      const args = await llamaChat.generateResponse(history, {
        ...counting,
        grammar,
        maxTokens: options.maxTokens - used,
        onTextChunk: (text) => text && generation.pushToolCalls([{ index: 0, function: { arguments: text } }]),
      });
      return args.metadata.stopReason === "maxTokens" || args.metadata.stopReason === "abort"
        ? args.metadata.stopReason
        : "toolCalls";
    }
    if (functions) {
      const opened = new Set<number>();
      const result = await llamaChat.generateResponse(history, {
        ...options,
        functions,
        documentFunctionParams: true,
        maxParallelFunctionCalls: chat.parallelToolCalls ? undefined : 1,
        onFunctionCallParamsChunk: (chunk) => {
          if (!opened.has(chunk.callIndex)) {
            opened.add(chunk.callIndex);
            generation.pushToolCalls([
              {
                index: chunk.callIndex,
                id: newToolCallId(),
                type: "function",
                function: { name: chunk.functionName, arguments: "" },
              },
            ]);
          }
          if (chunk.paramsChunk)
            generation.pushToolCalls([{ index: chunk.callIndex, function: { arguments: chunk.paramsChunk } }]);
        },
      });
      return result.functionCalls?.length && result.metadata.stopReason === "functionCalls"
        ? "toolCalls"
        : result.metadata.stopReason;
    }
    const grammar =
      typeof formatGrammar === "string"
        ? await loaded.model.llama.createGrammar({ grammar: formatGrammar })
        : formatGrammar
          ? await grammarFor(loaded, formatGrammar)
          : undefined;
    const result = await llamaChat.generateResponse(history, grammar ? { ...options, grammar } : options);
    return result.metadata.stopReason;
  }
  return { promptTokens, start };
}
