// The per-session event hub behind GET /computers/{id}/events (docs/contract.md
// "Streams"): what ran on a session (action requests and responses, exec output)
// as it happens, for audit and the dashboard's timeline. In-process and owned by
// the SessionManager, which ends every subscription when the session ends.
// Nothing is buffered: a subscriber sees what happens after it subscribed.

export type SessionEvent =
  | { event: "action_request"; data: { request_id: string; action: unknown; timestamp: string } }
  | { event: "action_response"; data: { request_id: string; status: string; error_message?: string; timestamp: string } }
  | { event: "exec_output"; data: { request_id: string; data: string; is_stderr: boolean } }
  | { event: "exec_exit"; data: { request_id: string; exit_code: number } }
  | { event: "ended"; data: { reason: string } };

export type SessionEventListener = (event: SessionEvent) => void;

export class SessionEvents {
  private readonly listeners = new Map<string, Set<SessionEventListener>>();

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

  /** Whether anyone listens (lets publishers skip building events nobody reads). */
  watched(sessionId: string): boolean {
    return (this.listeners.get(sessionId)?.size ?? 0) > 0;
  }

  publish(sessionId: string, event: SessionEvent): void {
    for (const listener of [...(this.listeners.get(sessionId) ?? [])]) {
      try {
        listener(event);
      } catch {
        // one broken subscriber must not stop the others or the action that published
      }
    }
  }

  /** The session ended: every subscriber gets `ended` and is dropped. */
  end(sessionId: string, reason: string): void {
    this.publish(sessionId, { event: "ended", data: { reason } });
    this.listeners.delete(sessionId);
  }

  /** Subscriptions held, for health and leak checks. */
  get subscriberCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}
