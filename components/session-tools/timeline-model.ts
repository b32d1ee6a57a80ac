// The event timeline's state, built from the SSE of /events (docs/contract.md
// "Streams" → Events): an action's request and response paired by request_id
// (a batch sends several pairs under one id: a response closes the newest open
// request of its id), exec output collapsed into one entry per request, and the
// end of the session, and what a person sends under Take control (consecutive
// keys and text merged into one "typed" entry). Each entry is placed at the
// time its event carries (replayed history too); newest first, at most
// TIMELINE_LIMIT entries.

export const TIMELINE_LIMIT = 200;
/** Exec output kept per entry (the tail): enough to see how a command ended. */
export const EXEC_TAIL_CHARS = 2_000;

export type TimelineEntry =
  | {
      kind: "action";
      key: string;
      requestId: string;
      action: string;
      at: number;
      status: "pending" | "success" | "error";
      errorMessage?: string;
      durationMs?: number;
    }
  | {
      kind: "exec";
      key: string;
      requestId: string;
      at: number;
      output: string;
      stderrChunks: number;
      bytes: number;
      exitCode?: number;
      command?: string;
      /** Set when the command did not end by itself: its caller stopped it, or its session ended. */
      stopped?: "by_caller" | "session_ended";
    }
  | { kind: "input"; key: string; at: number; what: "click" | "wheel" | "typed"; text: string }
  | { kind: "ended"; key: string; at: number; reason: string }
  | { kind: "error"; key: string; at: number; message: string };

export interface TimelineEvent {
  event: string;
  data: Record<string, unknown>;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");
const timeOf = (v: unknown, fallback: number) => {
  const t = Date.parse(str(v));
  return Number.isFinite(t) ? t : fallback;
};

/** One line for an action object: its type and the argument a person looks for first. */
export function describeAction(action: unknown): string {
  if (!action || typeof action !== "object") return "action";
  const a = action as Record<string, unknown>;
  const type = str(a.type) || "action";
  if (typeof a.url === "string") return `${type} ${a.url}`;
  if (typeof a.text === "string") return `${type} “${a.text.length > 40 ? `${a.text.slice(0, 40)}…` : a.text}”`;
  if (Array.isArray(a.keys)) return `${type} ${a.keys.join("+")}`;
  // The mouse's history buttons (the address field's Back and Forward): where they were pressed does not matter.
  if (a.button === "back" || a.button === "forward") return `${type} ${a.button}`;
  if (typeof a.x === "number" && typeof a.y === "number") return `${type} (${a.x}, ${a.y})`;
  if (typeof a.tab_id === "string") return `${type} ${a.tab_id}`;
  return type;
}

function decodeBase64(data: string): string {
  try {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return "";
  }
}

let counter = 0;
const nextKey = () => `t${++counter}`;

function replace(entries: TimelineEntry[], index: number, entry: TimelineEntry): TimelineEntry[] {
  const copy = entries.slice();
  copy[index] = entry;
  return copy;
}

const bounded = (entries: TimelineEntry[]) => entries.slice(0, TIMELINE_LIMIT);

/** The timeline after one event, received at `now` (used where the event carries no timestamp). */
export function applyTimelineEvent(
  entries: TimelineEntry[],
  { event, data }: TimelineEvent,
  now: number,
): TimelineEntry[] {
  const requestId = str(data.request_id);
  switch (event) {
    case "action_request":
      return bounded([
        {
          kind: "action",
          key: nextKey(),
          requestId,
          action: describeAction(data.action),
          at: timeOf(data.timestamp, now),
          status: "pending",
        },
        ...entries,
      ]);
    case "action_response": {
      const status = data.status === "success" ? "success" : "error";
      const at = timeOf(data.timestamp, now);
      const errorMessage = str(data.error_message) || undefined;
      const index = entries.findIndex(
        (e) => e.kind === "action" && e.requestId === requestId && e.status === "pending",
      );
      if (index < 0) {
        // The request was sent before this page started listening.
        return bounded([
          { kind: "action", key: nextKey(), requestId, action: "action", at, status, errorMessage },
          ...entries,
        ]);
      }
      const open = entries[index] as Extract<TimelineEntry, { kind: "action" }>;
      return replace(entries, index, { ...open, status, errorMessage, durationMs: Math.max(0, at - open.at) });
    }
    case "exec_output": {
      const text = decodeBase64(str(data.data));
      const isStderr = data.is_stderr === true;
      const index = entries.findIndex((e) => e.kind === "exec" && e.requestId === requestId);
      if (index < 0) {
        return bounded([
          {
            kind: "exec",
            key: nextKey(),
            requestId,
            at: timeOf(data.timestamp, now),
            output: text.slice(-EXEC_TAIL_CHARS),
            stderrChunks: isStderr ? 1 : 0,
            bytes: text.length,
          },
          ...entries,
        ]);
      }
      const open = entries[index] as Extract<TimelineEntry, { kind: "exec" }>;
      return replace(entries, index, {
        ...open,
        output: (open.output + text).slice(-EXEC_TAIL_CHARS),
        stderrChunks: open.stderrChunks + (isStderr ? 1 : 0),
        bytes: open.bytes + text.length,
      });
    }
    case "exec_exit": {
      const exitCode = typeof data.exit_code === "number" ? data.exit_code : -1;
      const stopped = data.stopped === "by_caller" || data.stopped === "session_ended" ? data.stopped : undefined;
      // The exit names its command (the output chunks do not), so a replayed or stopped exec still says what ran.
      const command = str(data.command) || undefined;
      const index = entries.findIndex((e) => e.kind === "exec" && e.requestId === requestId);
      if (index < 0)
        return bounded([
          {
            kind: "exec",
            key: nextKey(),
            requestId,
            at: timeOf(data.timestamp, now),
            output: "",
            stderrChunks: 0,
            bytes: 0,
            exitCode,
            command,
            stopped,
          },
          ...entries,
        ]);
      return replace(entries, index, {
        ...(entries[index] as Extract<TimelineEntry, { kind: "exec" }>),
        exitCode,
        command,
        stopped,
      });
    }
    case "live_input":
      return liveInput(entries, data, timeOf(data.timestamp, now));
    case "ended":
      // An ended session whose events were not kept: the empty timeline says so, rather than a lone "ended".
      if (data.history === "not_kept" && entries.length === 0) return entries;
      return bounded([
        { kind: "ended", key: nextKey(), at: timeOf(data.timestamp, now), reason: str(data.reason) || "ended" },
        ...entries,
      ]);
    case "error":
      return bounded([
        { kind: "error", key: nextKey(), at: now, message: str(data.message) || "The event stream failed" },
        ...entries,
      ]);
    default:
      return entries;
  }
}

/**
 * Keys and text typed in a row join the newest "typed" entry (within TYPING_GAP_MS); a click or wheel is its own entry.
 */
const TYPING_GAP_MS = 3_000;
const KEY_TEXT: Record<string, string> = { Enter: "⏎", Backspace: "⌫", Tab: "⇥", " ": " " };

function liveInput(entries: TimelineEntry[], data: Record<string, unknown>, at: number): TimelineEntry[] {
  const input = str(data.input);
  if (input === "click" || input === "wheel") {
    const where = `(${Number(data.x)}, ${Number(data.y)})`;
    const text =
      input === "click"
        ? `${data.button && data.button !== "left" ? `${str(data.button)} ` : ""}click at ${where}`
        : `scroll at ${where}`;
    return bounded([{ kind: "input", key: nextKey(), at, what: input, text }, ...entries]);
  }
  const typed =
    input === "text"
      ? str(data.text)
      : (KEY_TEXT[str(data.key)] ?? (str(data.key).length === 1 ? str(data.key) : `[${str(data.key)}]`));
  if (!typed) return entries;
  const newest = entries[0];
  if (newest?.kind === "input" && newest.what === "typed" && at - newest.at < TYPING_GAP_MS)
    return replace(entries, 0, { ...newest, text: (newest.text + typed).slice(-200) });
  return bounded([{ kind: "input", key: nextKey(), at, what: "typed", text: typed }, ...entries]);
}

/** "just now", "12 s ago", "3 min ago", "2 h ago". */
export function relativeTime(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
