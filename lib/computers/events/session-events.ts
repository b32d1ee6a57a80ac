// The per-session event hub behind GET /computers/{id}/events (docs/contract.md
// "Streams"): what ran on a session (action requests and responses, exec output)
// as it happens, for audit and the dashboard's timeline. In-process and owned by
// the SessionManager, which ends every subscription when the session ends.
// Every event but `ended` is also numbered and kept in an EventHistory (the last
// EVENT_HISTORY_LIMIT per session) so a late subscriber can replay them. Every
// event carries the time it happened (`timestamp`, stamped here when its
// publisher did not), so a replay shows when things ran, not when it was read.
import { EventHistory } from "@/lib/computers/events/event-history";
import type { LiveInputEventData } from "@/lib/computers/events/live-input-event";

export type SessionEvent =
  | { event: "action_request"; data: { request_id: string; action: unknown; timestamp: string } }
  | {
      event: "action_response";
      data: { request_id: string; status: string; error_message?: string; timestamp: string };
    }
  | { event: "exec_output"; data: { request_id: string; data: string; is_stderr: boolean; timestamp?: string } }
  | {
      event: "exec_exit";
      data: {
        request_id: string;
        exit_code: number;
        command?: string;
        /** Why a command did not end by itself: its caller stopped it, or its session ended (exit_code is then -1). */
        stopped?: "by_caller" | "session_ended";
        timestamp?: string;
      };
    }
  | { event: "live_input"; data: LiveInputEventData }
  | { event: "ended"; data: { reason: string; timestamp?: string } };

/** `id` is the event's number in the session's EventHistory (absent on `ended`, which is never kept). */
export type SessionEventListener = (event: SessionEvent, id?: number) => void;

const ENDED_REMEMBERED = 1_000;
/**
 * Ended sessions whose history is kept for review (the dashboard's timeline of an ended session); oldest dropped first.
 */
export const ENDED_HISTORIES_KEPT = 50;

/** How a kept session ended: its reason and when. */
export interface EndedRecord {
  reason: string;
  timestamp: string;
}

export class SessionEvents {
  private readonly listeners = new Map<string, Set<SessionEventListener>>();
  readonly history = new EventHistory<SessionEvent>();
  /** Recently ended sessions (bounded, oldest dropped): a late event after `end` must not start a new history. */
  private readonly ended = new Set<string>();
  /** The ended sessions whose history is still kept, oldest first. */
  private readonly endings = new Map<string, EndedRecord>();

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

  publish(sessionId: string, unstamped: SessionEvent): void {
    const event = (
      "timestamp" in unstamped.data && unstamped.data.timestamp
        ? unstamped
        : { ...unstamped, data: { ...unstamped.data, timestamp: new Date().toISOString() } }
    ) as SessionEvent;
    const id = event.event === "ended" || this.ended.has(sessionId) ? undefined : this.history.record(sessionId, event);
    for (const listener of [...(this.listeners.get(sessionId) ?? [])]) {
      try {
        listener(event, id);
      } catch {
        // one broken subscriber must not stop the others or the action that published
      }
    }
  }

  /**
   * The session ended: every subscriber gets `ended` and is dropped. Its history is kept
   * for review (`endedHistory`) among the last ENDED_HISTORIES_KEPT ended sessions.
   */
  end(sessionId: string, reason: string): void {
    const timestamp = new Date().toISOString();
    this.publish(sessionId, { event: "ended", data: { reason, timestamp } });
    this.listeners.delete(sessionId);
    this.endings.set(sessionId, { reason, timestamp });
    if (this.endings.size > ENDED_HISTORIES_KEPT) {
      const oldest = this.endings.keys().next().value as string;
      this.endings.delete(oldest);
      this.history.forget(oldest);
    }
    this.ended.add(sessionId);
    if (this.ended.size > ENDED_REMEMBERED) this.ended.delete(this.ended.values().next().value as string);
  }

  /**
   * An ended session's kept events (oldest first) and how it ended; null when not kept (evicted, restarted, another
   * node).
   */
  endedHistory(
    sessionId: string,
  ): { events: ReturnType<EventHistory<SessionEvent>["since"]>; ended: EndedRecord } | null {
    const ended = this.endings.get(sessionId);
    return ended ? { events: this.history.since(sessionId, 0), ended } : null;
  }

  /** Subscriptions held, for health and leak checks. */
  get subscriberCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}
