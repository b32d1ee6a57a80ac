// Per-model admission: `concurrency` requests run, up to `maxWaiting` wait in
// order, the rest are refused at once with a 429 (a client retry is cheaper
// than an unbounded queue holding sockets and memory).
import { AppError } from "@/lib/api/errors";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

type Release = () => void;

interface Waiter {
  resolve: (release: Release) => void;
  reject: (reason: unknown) => void;
  signal: RequestSignal;
  onAbort: () => void;
}

export class BoundedQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly name: string,
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  get stats() {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Waits for a slot; the returned function frees it (calling it twice is harmless). */
  acquire(signal: RequestSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(
        new AppError(
          "rate_limited",
          `Model ${this.name} is busy: ${this.waiting.length} requests are already waiting. Retry shortly.`,
          {
            detail: "model_overloaded",
            headers: { "retry-after": "1" },
          },
        ),
      );
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener("abort", waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        // The slot passes straight to the next waiter; `running` is unchanged.
        next.signal.removeEventListener("abort", next.onAbort);
        next.resolve(this.releaser());
      } else {
        this.running--;
      }
    };
  }
}
