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
  | "stopped";

export interface TaskEvent {
  event: TaskEventName;
  data: Record<string, unknown>;
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
  private readonly listeners = new Set<(event: TaskEvent) => void>();
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

  subscribe(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: TaskEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
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
