// The per-session event hub behind GET /computers/{id}/events (docs/contract.md
// "Streams"): what ran on a session (action requests and responses, exec output)
// as it happens, for audit and the dashboard's timeline. In-process and owned by
// the SessionManager, which ends every subscription when the session ends.
// Every event but `ended` is also numbered and kept in an EventHistory (the last
// EVENT_HISTORY_LIMIT per session) so a late subscriber can replay them.
import { EventHistory } from "@/lib/computers/events/event-history";

export type SessionEvent =
  | { event: "action_request"; data: { request_id: string; action: unknown; timestamp: string } }
  | {
      event: "action_response";
      data: { request_id: string; status: string; error_message?: string; timestamp: string };
    }
  | { event: "exec_output"; data: { request_id: string; data: string; is_stderr: boolean } }
  | { event: "exec_exit"; data: { request_id: string; exit_code: number; command?: string } }
  | { event: "ended"; data: { reason: string } };

/** `id` is the event's number in the session's EventHistory (absent on `ended`, which is never kept). */
export type SessionEventListener = (event: SessionEvent, id?: number) => void;

const ENDED_REMEMBERED = 1_000;

export class SessionEvents {
  private readonly listeners = new Map<string, Set<SessionEventListener>>();
  readonly history = new EventHistory<SessionEvent>();
  /** Recently ended sessions (bounded, oldest dropped): a late event after `end` must not start a new history. */
  private readonly ended = new Set<string>();

  /** Adds a listener for one session; returns the function that removes it. */
  subscribe(sessionId: string, listener: SessionEventListener): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(sessionId) === set) this.listeners.delete(sessionId);
    };
  }

  /** Whether anyone listens right now (the history keeps events either way). */
  watched(sessionId: string): boolean {
    return (this.listeners.get(sessionId)?.size ?? 0) > 0;
  }

  publish(sessionId: string, event: SessionEvent): void {
    const id = event.event === "ended" || this.ended.has(sessionId) ? undefined : this.history.record(sessionId, event);
    for (const listener of [...(this.listeners.get(sessionId) ?? [])]) {
      try {
        listener(event, id);
      } catch {
        // one broken subscriber must not stop the others or the action that published
      }
    }
  }

  /** The session ended: every subscriber gets `ended` and is dropped. */
  end(sessionId: string, reason: string): void {
    this.publish(sessionId, { event: "ended", data: { reason } });
    this.listeners.delete(sessionId);
    this.history.forget(sessionId);
    this.ended.add(sessionId);
    if (this.ended.size > ENDED_REMEMBERED) this.ended.delete(this.ended.values().next().value as string);
  }

  /** Subscriptions held, for health and leak checks. */
  get subscriberCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}
