"use client";

import type { UIMessage } from "ai";
import { memo } from "react";
import { AnswerText } from "@/components/playground/answer-text";
import { Button } from "@/components/ui/button";
import type { PlaygroundMessageMetadata } from "@/lib/models/playground";

export type PlaygroundMessage = UIMessage<PlaygroundMessageMetadata>;

export const SUGGESTED_PROMPTS = [
  "Explain what a headless browser is in two sentences.",
  "Write a haiku about remote desktops.",
  "List three uses of an OpenAI-compatible API.",
] as const;

export const textOf = (m: PlaygroundMessage) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

/** USD with two significant digits and no exponent: a few tokens cost $0.0000012, not $1.2e-6. */
function usd(n: number): string {
  if (n <= 0) return "$0";
  const decimals = Math.min(12, Math.max(2, 1 - Math.floor(Math.log10(n))));
  return `$${n.toFixed(decimals).replace(/(\.\d*?[1-9])0+$/, "$1")}`;
}

function AnswerFacts({
  meta,
  streaming,
  failed,
}: {
  meta?: PlaygroundMessageMetadata;
  streaming: boolean;
  failed: boolean;
}) {
  if (streaming) return <p className="text-xs text-slate-500">Answering…</p>;
  if (failed) return null;
  if (meta?.output_tokens === undefined)
    return <p className="text-xs text-slate-500">Stopped before the end: its tokens are on the Usage page.</p>;
  return (
    <p className="text-xs text-slate-500" data-testid="playground-answer-facts">
      {meta.input_tokens} tokens in · {meta.output_tokens} out · {usd(meta.cost_usd ?? 0)}
      {meta.finish_reason === "length" && " · reached max tokens"}
    </p>
  );
}

export function EmptyChat({ onPick }: { onPick: (prompt: string) => void }) {
  return (
    <div className="space-y-3 py-6 text-center text-sm text-slate-600" data-testid="playground-empty">
      <p className="font-medium text-slate-900">Ask the model something.</p>
      <p>Answers stream in as they are generated; usage is billed to this organization. Try one of these:</p>
      <ul className="mx-auto flex max-w-md flex-col gap-2">
        {SUGGESTED_PROMPTS.map((prompt) => (
          <li key={prompt}>
            <button
              type="button"
              onClick={() => onPick(prompt)}
              className={
                "w-full rounded-md border border-slate-200 px-3 py-2 text-left hover:border-brand-500 " +
                "hover:bg-brand-50"
              }
            >
              {prompt}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * One message. Memoized: while an answer streams only its message object changes
 * (the others keep their identity), so each frame renders that one alone.
 */
const ChatMessage = memo(function ChatMessage({
  message: m,
  streaming,
  failed,
}: {
  message: PlaygroundMessage;
  streaming: boolean;
  failed: boolean;
}) {
  const mine = m.role === "user";
  return (
    <li
      className={`flex flex-col gap-1 ${mine ? "items-end" : "items-start"}`}
      data-testid={`playground-message-${m.role}`}
    >
      <div
        className={
          `max-w-[85%] whitespace-pre-wrap break-words rounded-lg px-3 py-2 ` +
          `text-sm ${mine ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-900"}`
        }
        data-testid={mine ? undefined : "playground-answer"}
      >
        {mine ? textOf(m) : <AnswerText text={textOf(m)} placeholder={streaming ? "…" : ""} />}
      </div>
      {!mine && <AnswerFacts meta={m.metadata} streaming={streaming} failed={failed} />}
    </li>
  );
});

/** `failedId`: the answer that ended in an error (the error below the thread says why). */
export function ChatMessages({
  messages,
  streamingId,
  failedId,
}: {
  messages: PlaygroundMessage[];
  streamingId?: string;
  failedId?: string;
}) {
  return (
    <ol className="space-y-4" aria-live="polite" aria-label="Conversation">
      {messages.map((m) => (
        <ChatMessage key={m.id} message={m} streaming={m.id === streamingId} failed={m.id === failedId} />
      ))}
    </ol>
  );
}

export function ChatWaiting() {
  return (
    <p className="flex items-center gap-2 text-sm text-slate-500" role="status" data-testid="playground-waiting">
      <span className="h-2 w-2 animate-pulse rounded-full bg-brand-500" /> Waiting for the model…
    </p>
  );
}

/** A request refused or failed: its reason in plain words, and a Retry. */
export function ChatFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className={
        "flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm " +
        "text-red-800"
      }
    >
      <p className="min-w-0 flex-1 break-words">The model could not answer: {message}</p>
      <Button variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** The transport's error is the response body when the server refused: its JSON envelope's message. */
export function plainError(error: Error): string {
  try {
    const parsed = JSON.parse(error.message) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // Not JSON: a network failure or an in-band error text, already plain.
  }
  return error.message || "Something went wrong.";
}
