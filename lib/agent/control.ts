// What a running task's loop is told from outside, between its steps: pause
// (the loop waits at its next `gate`), resume, stop (aborts the model call or
// action in flight through `signal`), and messages to join the next model call.
// One TaskControl per running task, owned by the runner (runner.ts); events
// for streams go through the same object (`subscribe`/`emit`).

export type TaskEventName =
  | "started"
  | "action"
  | "screenshot"
  | "step"
  | "message"
  | "paused"
  | "resumed"
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

  resume(): void {
    if (!this.pausedNow) return;
    this.pausedNow = false;
    this.emit({ event: "resumed", data: {} });
    this.wake();
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

  /** Between steps: holds while paused; throws the interruption when there is one. */
  async gate(): Promise<void> {
    if (this.pausedNow && !this.interruption) this.emit({ event: "paused", data: {} });
    while (this.pausedNow && !this.interruption) {
      await new Promise<void>((resolve) => (this.wakeUp = resolve));
    }
    if (this.interruption) throw this.interruption;
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
