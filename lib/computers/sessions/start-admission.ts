// Admission of session starts on this node (docs/cluster.md "Start admission"): at most
// `concurrency` context or desktop starts run at once; later creates wait, up to `queueMax`
// of them and for at most `maxWaitMs` each. Waiting creates are admitted in turns by
// organization (`TenantTurns`), each organization's own in arrival order, so one
// organization's burst does not hold another's single create behind it. Past either bound the create
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

/**
 * Waiters grouped by tenant, served round robin: the tenant admitted last goes to the back of
 * the line if it still has waiters. Pure bookkeeping (unit tested through StartAdmission).
 */
class TenantTurns<T> {
  private readonly waiting = new Map<string, T[]>();
  /** Tenants with waiters, the next to be served first. */
  private readonly line: string[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(tenant: string, item: T) {
    const own = this.waiting.get(tenant);
    if (own) own.push(item);
    else {
      this.waiting.set(tenant, [item]);
      this.line.push(tenant);
    }
    this.count++;
  }

  /** The next tenant's oldest waiter. */
  shift(): T | undefined {
    const tenant = this.line.shift();
    if (tenant === undefined) return undefined;
    const own = this.waiting.get(tenant)!;
    const item = own.shift()!;
    if (own.length) this.line.push(tenant);
    else this.waiting.delete(tenant);
    this.count--;
    return item;
  }

  remove(tenant: string, item: T) {
    const own = this.waiting.get(tenant);
    const at = own?.indexOf(item) ?? -1;
    if (!own || at < 0) return;
    own.splice(at, 1);
    this.count--;
    if (own.length) return;
    this.waiting.delete(tenant);
    this.line.splice(this.line.indexOf(tenant), 1);
  }
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
  private readonly queue = new TenantTurns<Waiter>();
  /** Background starts waiting for a slot no create wants; unbounded and without a deadline. */
  private readonly background: Array<() => void> = [];

  constructor(private readonly limits: () => AdmissionLimits) {}

  /** Creates waiting for a start slot (the `cabin_session_start_queue` gauge). */
  get queued(): number {
    return this.queue.size;
  }

  /** Starts running now. */
  get starting(): number {
    return this.running;
  }

  /**
   * Runs `start` once a slot is free; the slot is released when it settles. `tenant` (the
   * organization) takes turns with the other tenants waiting; one tenant's creates keep their order.
   */
  async run<T>(start: () => Promise<T>, tenant = ""): Promise<T> {
    await this.enter(tenant);
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
    if (this.running < this.limits().concurrency && this.queue.size === 0) this.running++;
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

  private enter(tenant: string): Promise<void> {
    const { concurrency, queueMax, maxWaitMs } = this.limits();
    if (this.running < concurrency && this.queue.size === 0) {
      this.running++;
      return Promise.resolve();
    }
    if (this.queue.size >= queueMax) {
      return Promise.reject(busy(`${this.queue.size} creates already wait for a start on this node`, maxWaitMs));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        // The slot passes straight from `leave` to the waiter: `running` is not lowered in between.
        admit: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.queue.remove(tenant, waiter);
          reject(busy(`the create waited ${Math.round(maxWaitMs / 1000)} s for a start slot on this node`, maxWaitMs));
        }, maxWaitMs),
      };
      this.queue.push(tenant, waiter);
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
