// The abort signal of a /v1 request. Node 20's AbortController costs the
// gateway more than its construction: objects made alongside it outlive the
// young-generation GC (in a loop, a bare `new AbortController()` per iteration
// made 15% of all allocations survive, against 0% without), and surviving
// objects are what makes a scavenge long. With one per request and one per
// upstream call replaced, the bytes surviving scavenges under one client fell
// from 77 MB to 51 MB over 8 s (sampled), and the scavenges behind an
// authenticated GET /v1/models from ~4 ms to ~2 ms each.
// The custom server's fast path hands handlers a CancelSignal instead;
// everything under lib/models takes the RequestSignal subset, which a real
// AbortSignal (Next's route, the playground) satisfies too.

/** What /v1 code uses of an abort signal. */
export interface RequestSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * A plain-object signal: listeners run once, in order, on the first `abort`; later ones are not called, as with
 * AbortSignal.
 */
export class CancelSignal implements RequestSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | null = null;

  addEventListener(_type: "abort", listener: () => void): void {
    if (!this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index >= 0) this.listeners!.splice(index, 1);
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? Object.assign(new Error("This operation was aborted"), { name: "AbortError" });
    const listeners = this.listeners;
    this.listeners = null;
    for (const listener of listeners ?? []) listener();
  }
}
