// What a running task's loop is told from outside, between its steps: pause
// (the loop waits at its next `gate`), resume, stop (aborts the model call or
// action in flight through `signal`), and messages to join the next model call.
// One TaskControl per running task, owned by the runner (runner.ts); events
// for streams go through the same object (`subscribe`/`emit`). A hand-off to a
// person (docs/agent-tasks.md "Hand-off to a person") holds the loop at the
// same gate as a pause, until `resume` gives control back with a note.

export type TaskEventName =
  | "started"
  | "action"
  | "screenshot"
  | "step"
  | "message"
  | "paused"
  | "resumed"
  /** The task waits for a person: {reason, live_view_url, …} (lib/agent/handoff.ts). */
  | "needs_human"
  | "completed"
  | "failed"
  | "stopped"
  /** Only on a resumed stream: the events before `first_available` are no longer kept. */
  | "replay_gap";

export interface TaskEvent {
  event: TaskEventName;
  data: Record<string, unknown>;
}

/** An emitted event with its place in the task's stream (1, 2, …): the SSE `id` a client resumes from. */
export interface SequencedEvent extends TaskEvent {
  seq: number;
}

/** Why a loop stopped early; the loop turns it into the task's end (status and end_reason). */
export class TaskInterrupted extends Error {
  constructor(
    readonly reason: "stopped" | "server_shutdown" | "session_ended" | "max_duration",
    message: string,
  ) {
    super(message);
    this.name = "TaskInterrupted";
  }
}

export class TaskControl {
  private readonly abortController = new AbortController();
  private pausedNow = false;
  /** The hand-off the loop waits on, set from `handOff` until `resume`; its event goes out once the loop holds. */
  private handoff: { reason: string; announce: () => TaskEvent; announced: boolean } | null = null;
  private handedBack: { note: string | null; by: string } | null = null;
  private wakeUp: (() => void) | null = null;
  private readonly pending: string[] = [];
  private readonly listeners = new Set<(event: SequencedEvent) => void>();
  private readonly history: SequencedEvent[] = [];
  private seq = 0;

  /** `historyLimit`: events kept for streams that resume (AGENT_TASK_EVENT_HISTORY); older ones are dropped. */
  constructor(private readonly historyLimit = 500) {}
  private interruption: TaskInterrupted | null = null;

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  get paused(): boolean {
    return this.pausedNow;
  }

  /** Asks the loop to hold at its next `gate`; the `paused` event goes out once it holds (no step runs after it). */
  pause(): void {
    if (this.pausedNow || this.interruption) return;
    this.pausedNow = true;
  }

  /** The reason of the hand-off the task waits on (or will, at its next gate), or null. */
  get awaitingHuman(): string | null {
    return this.handoff?.reason ?? null;
  }

  /**
   * Asks the loop to hold at its next `gate` for a person; `announce` makes the `needs_human` event
   * once it holds (no step runs after it). False when the task is ending or already waits.
   */
  handOff(reason: string, announce: () => TaskEvent): boolean {
    if (this.handoff || this.interruption) return false;
    this.handoff = { reason, announce, announced: false };
    this.wake(); // a loop held by a pause announces the hand-off now
    return true;
  }

  /** Control back to the agent, from a pause or a hand-off (`note`, `by`: what the person did, and who). */
  resume(handBack?: { note: string | null; by: string }): void {
    if (!this.pausedNow && !this.handoff) return;
    const wasWaiting = this.handoff !== null;
    this.pausedNow = false;
    this.handoff = null;
    if (wasWaiting) this.handedBack = handBack ?? { note: null, by: "api" };
    this.emit({
      event: "resumed",
      data: wasWaiting ? { from: "awaiting_human", by: this.handedBack!.by, note: this.handedBack!.note } : {},
    });
    this.wake();
  }

  /** The hand-back since the last call (the loop tells the model what the person did), or null. */
  takeHandBack(): { note: string | null; by: string } | null {
    const handBack = this.handedBack;
    this.handedBack = null;
    return handBack;
  }

  /** Ends the loop at once: the call in flight is aborted and the next `gate` throws. */
  interrupt(reason: TaskInterrupted["reason"], message: string): void {
    if (this.interruption) return;
    this.interruption = new TaskInterrupted(reason, message);
    this.abortController.abort(this.interruption);
    this.wake();
  }

  get interrupted(): TaskInterrupted | null {
    return this.interruption;
  }

  inject(message: string): number {
    this.pending.push(message);
    return this.pending.length;
  }

  /** The messages injected since the last call, oldest first (they join the next model call). */
  takeMessages(): string[] {
    return this.pending.splice(0);
  }

  get queuedMessages(): number {
    return this.pending.length;
  }

  /** Between steps: holds while paused or waiting for a person; throws the interruption when there is one. */
  async gate(): Promise<void> {
    let pausedSaid = false;
    for (;;) {
      if (this.interruption) throw this.interruption;
      if (this.handoff) {
        if (!this.handoff.announced) {
          this.handoff.announced = true;
          this.emit(this.handoff.announce());
        }
      } else if (this.pausedNow) {
        if (!pausedSaid) this.emit({ event: "paused", data: {} });
        pausedSaid = true;
      } else return;
      await new Promise<void>((resolve) => (this.wakeUp = resolve));
    }
  }

  subscribe(listener: (event: SequencedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The kept events after `afterSeq`, then every new one as it comes. When events after `afterSeq`
   * were dropped already, a `replay_gap` event (no seq of its own) comes first and says which.
   */
  follow(afterSeq: number, listener: (event: TaskEvent & { seq?: number }) => void): () => void {
    const first = this.history[0]?.seq ?? this.seq + 1;
    if (afterSeq + 1 < first)
      listener({
        event: "replay_gap",
        data: { from: afterSeq + 1, first_available: first, dropped: first - afterSeq - 1 },
      });
    for (const event of this.history) if (event.seq > afterSeq) listener(event);
    return this.subscribe(listener);
  }

  emit(event: TaskEvent): void {
    const sequenced = { ...event, seq: ++this.seq };
    this.history.push(sequenced);
    if (this.history.length > this.historyLimit) this.history.shift();
    for (const listener of [...this.listeners]) {
      try {
        listener(sequenced);
      } catch {
        // one broken stream must not stop the loop
      }
    }
  }

  private wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }
}
