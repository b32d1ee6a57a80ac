// max_duration_seconds counts the time the agent works, not the time a task
// waits for a person (docs/agent-tasks.md "Hand-off to a person"): the clock
// stops at `needs_human` and goes on from where it was at the hand-back. A wait
// is bounded by the session instead (its expires_at ends it, and the task).
import type { TaskControl } from "@/lib/agent/control";

/** Calls `onExpire` once `seconds` of working time have passed; the returned function cancels it. */
export function startRunClock(control: TaskControl, seconds: number, onExpire: () => void): () => void {
  let remainingMs = seconds * 1000;
  let startedAt = Date.now();
  let timer: NodeJS.Timeout | null = null;
  const run = () => {
    startedAt = Date.now();
    timer = setTimeout(onExpire, remainingMs);
    timer.unref();
  };
  const unsubscribe = control.subscribe((event) => {
    if (event.event === "needs_human" && timer) {
      clearTimeout(timer);
      timer = null;
      remainingMs = Math.max(0, remainingMs - (Date.now() - startedAt));
    } else if (event.event === "resumed" && event.data.from === "awaiting_human" && !timer) run();
  });
  run();
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
