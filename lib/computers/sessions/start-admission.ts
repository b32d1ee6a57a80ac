// Admission of session starts on this node (docs/cluster.md "Start admission"): at most
// `concurrency` context or desktop starts run at once; later creates wait in a FIFO queue,
// up to `queueMax` of them and for at most `maxWaitMs` each. Past either bound the create
// is a 503 with retry-after, and nothing was made. Starting a Chromium context or a desktop
// takes most of both cores for a moment; unbounded, a burst of creates starves the actions
// of live sessions (measured in bench/cluster-burst.ts).
//
// Background starts (the BrowserPool's standby refills) take the same slots but only when no
// create waits: they never delay a create and never run beside one past `concurrency`. One
// that hangs (a Chromium that died under it) gives its slot back after BACKGROUND_HOLD_MS.
import { AppError } from "@/lib/api/errors";
import { getEnv } from "@/lib/env";
import { singleton, singletonKey } from "@/lib/singleton";

export interface AdmissionLimits {
  concurrency: number;
  queueMax: number;
  maxWaitMs: number;
}

/** The SESSION_START_* settings (docs/configuration.md). */
export function startLimitsFromEnv(): AdmissionLimits {
  const env = getEnv();
  return {
    concurrency: env.SESSION_START_CONCURRENCY,
    queueMax: env.SESSION_START_QUEUE_MAX,
    maxWaitMs: env.SESSION_START_QUEUE_WAIT_SECONDS * 1000,
  };
}

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

/** The longest a background start holds a slot; past it the slot goes to the queue whatever the start does. */
export const BACKGROUND_HOLD_MS = 10_000;

const NODE_ADMISSION = singletonKey<StartAdmission>("startAdmission");

/** This node's one start queue: creates (`SessionManager.admission`) and standby refills share it. */
export function nodeStartAdmission(): StartAdmission {
  return singleton(NODE_ADMISSION, () => new StartAdmission(startLimitsFromEnv));
}

export class StartAdmission {
  private running = 0;
  private readonly queue: Waiter[] = [];
  /** Background starts waiting for a slot no create wants; unbounded and without a deadline. */
  private readonly background: Array<() => void> = [];

  constructor(private readonly limits: () => AdmissionLimits) {}

  /** Creates waiting for a start slot (the `cabin_session_start_queue` gauge). */
  get queued(): number {
    return this.queue.length;
  }

  /** Starts running now. */
  get starting(): number {
    return this.running;
  }

  /** Runs `start` once a slot is free, in arrival order; the slot is released when it settles. */
  async run<T>(start: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await start();
    } finally {
      this.leave();
    }
  }

  /**
   * Runs `start` in a slot no create is waiting for (the standby refills): admitted only while
   * the create queue is empty, so a burst of creates goes first and refills follow it.
   */
  async runInBackground<T>(start: () => Promise<T>, holdMs = BACKGROUND_HOLD_MS): Promise<T> {
    if (this.running < this.limits().concurrency && this.queue.length === 0) this.running++;
    else await new Promise<void>((resolve) => this.background.push(resolve));
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.leave();
    };
    const timer = setTimeout(release, holdMs);
    try {
      return await start();
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  private enter(): Promise<void> {
    const { concurrency, queueMax, maxWaitMs } = this.limits();
    if (this.running < concurrency && this.queue.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    if (this.queue.length >= queueMax) {
      return Promise.reject(busy(`${this.queue.length} creates already wait for a start on this node`, maxWaitMs));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        // The slot passes straight from `leave` to the waiter: `running` is not lowered in between.
        admit: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          reject(busy(`the create waited ${Math.round(maxWaitMs / 1000)} s for a start slot on this node`, maxWaitMs));
        }, maxWaitMs),
      };
      this.queue.push(waiter);
    });
  }

  private leave() {
    const next = this.queue.shift();
    if (next) return next.admit();
    const refill = this.background.shift();
    if (refill) return refill();
    this.running--;
  }
}

function busy(why: string, maxWaitMs: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(maxWaitMs / 1000));
  return new AppError("unavailable", `Too many session starts at once: ${why}; retry in ${retryAfter} s`, {
    detail: "start_queue_full",
    headers: { "retry-after": String(retryAfter) },
  });
}
