// The abort signal of a /v1 request. Node 20's AbortController is costly to
// the gateway beyond its construction: with one or two per request, about a
// seventh of everything a request allocates survived the young-generation GC
// (measured in a loop: 0% without, 15% with a bare `new AbortController()`),
// which made every scavenge several milliseconds long, the gateway's p99.
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

/** A plain-object signal: listeners run once, in order, on the first `abort`; later ones are not called, as with AbortSignal. */
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
