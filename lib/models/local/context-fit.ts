// How a local model's answer fits its context (docs/models.md "The local
// model's context"). Without max_tokens an answer stops at DEFAULT_MAX_TOKENS
// (writing until the context is full took minutes on 2 cores and left no room
// for the next turn). A conversation that has outgrown the context loses its
// oldest turns — system messages and the latest message always stay — until
// the answer has room, the way llama.cpp's server and node-llama-cpp's chat
// shift a full context instead of failing: a loop that feeds its answers back
// (the public Lightcone examples `monitor.py`, `multi_tab.py`) keeps running.
// Only when even that is too long is the request refused (context_length_exceeded).
import type { ChatMessage } from "@/lib/models/types";

/** The answer's length when the request sets none: a few sentences, or a tool call with room to spare. */
export const DEFAULT_MAX_TOKENS = 256;

/** The answer's upper bound: what was asked, else the default. */
export const answerBudget = (asked: number | undefined) => asked ?? DEFAULT_MAX_TOKENS;

/** The room a conversation is trimmed for: the answer's budget, but never more than half the context. */
export const roomWanted = (budget: number, contextSize: number) => Math.min(budget, Math.floor(contextSize / 2));

/**
 * The conversation without its oldest turn: the first message that is neither a system message nor the
 * last one, with the tool results of the calls it made. Undefined when nothing more can go.
 */
export function withoutOldestTurn(messages: ChatMessage[]): ChatMessage[] | undefined {
  const last = messages.length - 1;
  const index = messages.findIndex((m, i) => m.role !== "system" && i < last);
  if (index < 0) return undefined;
  const dropped = messages[index]!;
  const calls = new Set((dropped.toolCalls ?? []).map((c) => c.id));
  return messages.filter(
    (m, i) => i !== index && (i === last || !(m.role === "tool" && m.toolCallId && calls.has(m.toolCallId))),
  );
}

/**
 * Drops the oldest turns until `promptTokensOf(messages)` leaves `room` tokens in `contextSize`.
 * Returns the messages kept and their prompt's size (possibly still too long when nothing more could go).
 */
export function fitConversation<T extends { promptTokens: number }>(
  messages: ChatMessage[],
  contextSize: number,
  room: number,
  prepare: (messages: ChatMessage[]) => T,
): { messages: ChatMessage[]; run: T; dropped: number } {
  let kept = messages;
  let run = prepare(kept);
  let dropped = 0;
  while (contextSize - run.promptTokens < room) {
    const shorter = withoutOldestTurn(kept);
    if (!shorter) break;
    dropped += kept.length - shorter.length;
    kept = shorter;
    run = prepare(kept);
  }
  return { messages: kept, run, dropped };
}
