// @needs nothing
// CancelSignal: the fast path's stand-in for AbortSignal keeps its semantics
// where /v1 code relies on them (lib/models/gateway/request-signal.ts).
import { describe, expect, it } from "vitest";
import { CancelSignal } from "@/lib/models/gateway/request-signal";

describe("CancelSignal", () => {
  it("runs each listener once, in order, on the first abort only", () => {
    const signal = new CancelSignal();
    const calls: string[] = [];
    signal.addEventListener("abort", () => calls.push("a"));
    signal.addEventListener("abort", () => calls.push("b"));
    signal.abort(new Error("gone"));
    signal.abort(new Error("again"));
    expect(calls).toEqual(["a", "b"]);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("gone");
  });

  it("does not call a removed listener, nor one added after the abort", () => {
    const signal = new CancelSignal();
    const calls: string[] = [];
    const removed = () => calls.push("removed");
    signal.addEventListener("abort", removed);
    signal.removeEventListener("abort", removed);
    signal.abort();
    signal.addEventListener("abort", () => calls.push("late"));
    expect(calls).toEqual([]);
  });

  it("gives an AbortError as the reason when none is given, like AbortController", () => {
    const signal = new CancelSignal();
    signal.abort();
    expect(signal.reason).toBeInstanceOf(Error);
    expect((signal.reason as Error).name).toBe("AbortError");
  });
});
