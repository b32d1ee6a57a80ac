// One computer's actions, one at a time (a click then a screenshot must see the
// click), each bounded by the action timeout. A timed-out action fails with
// ActionError("failed") naming the timeout and the queue moves on: the next
// action runs even if the stuck one never settles (its late result is dropped).
import { ActionError } from "@/lib/computers/actions/action-error";

export class ActionQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly timeoutMs: number) {}

  /** Runs `fn` after every action queued before it, failing it after the timeout. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(() => this.bounded(fn));
    this.tail = next.catch(() => {});
    return next;
  }

  private async bounded<T>(fn: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ActionError("failed", `Action timed out after ${formatSeconds(this.timeoutMs)}`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([fn(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
