// A session's end, published once by the SessionManager (`terminate`, `endInOrder`) as one
// typed event, after its row is marked terminated and before anything of the session is
// torn down. Everything that outlives a request but not the session subscribes here instead
// of keeping a hook of its own, and hears the end in one order (docs/computers.md "How a
// session ends"):
//   1. events           — GET /computers/{id}/events subscribers get `event: ended`
//   2. final_screenshot — the last screen is taken and kept for review, while viewers
//                         and CDP clients still see it (keepFinalScreenshot)
//   3. live_view        — screencast and /ws viewers are told why; the capture stops
//   4. cdp              — CDP clients are closed with the reason
//   5. usage            — counters and accounting of ended sessions
//   6. tasks            — agent tasks driving the session stop (TaskRunner)
// Subscribers are called synchronously in that order (so the first thing each one
// hears is the end itself); `publish` then waits for the asynchronous ones, and the
// manager stops the computer only after that.
import type { ComputerKind } from "@/lib/computers/driver";
import type { TerminationReason } from "@/lib/computers/sessions/lifecycle";

export interface SessionEnded {
  sessionId: string;
  organizationId: string;
  kind: ComputerKind;
  reason: TerminationReason;
  at: Date;
}

export const SESSION_END_STAGES = ["events", "final_screenshot", "live_view", "cdp", "usage", "tasks"] as const;
export type SessionEndStage = (typeof SESSION_END_STAGES)[number];

export type SessionEndSubscriber = (ended: SessionEnded) => void | Promise<void>;

interface Subscription {
  stage: SessionEndStage;
  subscriber: SessionEndSubscriber;
}

export class SessionEndBus {
  private subscriptions: Subscription[] = [];

  /** Adds a subscriber at its stage (after those already there); returns the function that removes it. */
  subscribe(stage: SessionEndStage, subscriber: SessionEndSubscriber): () => void {
    const entry: Subscription = { stage, subscriber };
    const rank = SESSION_END_STAGES.indexOf(stage);
    const at = this.subscriptions.findIndex((s) => SESSION_END_STAGES.indexOf(s.stage) > rank);
    if (at === -1) this.subscriptions.push(entry);
    else this.subscriptions.splice(at, 0, entry);
    return () => {
      this.subscriptions = this.subscriptions.filter((s) => s !== entry);
    };
  }

  /**
   * Tells every subscriber, in stage order, then waits for the ones that returned a
   * promise. A subscriber that throws or rejects is reported to `onError` and does not
   * stop the others: an end must always complete.
   */
  async publish(ended: SessionEnded, onError: (err: unknown, stage: SessionEndStage) => void): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const { stage, subscriber } of [...this.subscriptions]) {
      try {
        const result = subscriber(ended);
        if (result) pending.push(result.catch((err: unknown) => onError(err, stage)));
      } catch (err) {
        onError(err, stage);
      }
    }
    await Promise.all(pending);
  }

  get size(): number {
    return this.subscriptions.length;
  }
}
