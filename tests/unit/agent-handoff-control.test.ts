// The hand-off's pure parts: TaskControl holds the loop for a person the way a
// pause does (the needs_human event once it holds, resume with a note and who,
// a pause and a hand-off together), the run clock that stops while a task waits
// (max_duration_seconds counts the agent's working time), and request_human's
// arguments.
import { afterEach, describe, expect, it, vi } from "vitest";
import { TaskControl, type TaskEvent } from "@/lib/agent/control";
import { startRunClock } from "@/lib/agent/run-clock";
import { parseRequestHuman } from "@/lib/agent/tools/request-human";

const needs = (reason: string): TaskEvent => ({ event: "needs_human", data: { reason } });

function recorder(control: TaskControl) {
  const names: string[] = [];
  control.subscribe((e) => names.push(e.event));
  return names;
}

describe("TaskControl hand-off", () => {
  it("holds at the gate, announces needs_human once, and resume hands back the note", async () => {
    const control = new TaskControl();
    const events = recorder(control);
    expect(control.handOff("log in", () => needs("log in"))).toBe(true);
    expect(control.handOff("again", () => needs("again"))).toBe(false);
    expect(control.awaitingHuman).toBe("log in");
    let through = false;
    const gate = control.gate().then(() => (through = true));
    await Promise.resolve();
    expect(through).toBe(false);
    expect(events).toEqual(["needs_human"]);
    control.resume({ by: "Ann", note: "done it" });
    await gate;
    expect(events).toEqual(["needs_human", "resumed"]);
    expect(control.awaitingHuman).toBeNull();
    expect(control.takeHandBack()).toEqual({ by: "Ann", note: "done it" });
    expect(control.takeHandBack()).toBeNull();
  });

  it("a hand-off while paused wakes the held gate to announce it; one resume ends both", async () => {
    const control = new TaskControl();
    const events = recorder(control);
    control.pause();
    const gate = control.gate();
    await Promise.resolve();
    expect(events).toEqual(["paused"]);
    control.handOff("captcha", () => needs("captcha"));
    await Promise.resolve();
    expect(events).toEqual(["paused", "needs_human"]);
    control.resume({ by: "the take-over link", note: null });
    await gate;
    expect(control.paused).toBe(false);
  });

  it("a stop ends a waiting loop, and no hand-off starts after it", async () => {
    const control = new TaskControl();
    control.handOff("x", () => needs("x"));
    const gate = control.gate();
    control.interrupt("stopped", "Stopped on request");
    await expect(gate).rejects.toThrow("Stopped on request");
    expect(control.handOff("y", () => needs("y"))).toBe(false);
  });

  it("a plain resume of a pause says nothing of a person", async () => {
    const control = new TaskControl();
    const seen: TaskEvent[] = [];
    control.subscribe((e) => seen.push(e));
    control.pause();
    const gate = control.gate();
    control.resume();
    await gate;
    expect(seen.at(-1)).toMatchObject({ event: "resumed", data: {} });
    expect(control.takeHandBack()).toBeNull();
  });
});

describe("startRunClock", () => {
  afterEach(() => vi.useRealTimers());

  it("stops while the task waits for a person and goes on from where it was", () => {
    vi.useFakeTimers();
    const control = new TaskControl();
    const expired = vi.fn();
    startRunClock(control, 10, expired);
    vi.advanceTimersByTime(6_000);
    control.handOff("x", () => needs("x"));
    void control.gate();
    vi.advanceTimersByTime(60_000);
    expect(expired).not.toHaveBeenCalled();
    control.resume({ by: "Ann", note: null });
    vi.advanceTimersByTime(3_900);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(expired).toHaveBeenCalledOnce();
  });

  it("cancelled, it never fires", () => {
    vi.useFakeTimers();
    const expired = vi.fn();
    const stop = startRunClock(new TaskControl(), 1, expired);
    stop();
    vi.advanceTimersByTime(5_000);
    expect(expired).not.toHaveBeenCalled();
  });
});

describe("parseRequestHuman", () => {
  it("takes the reason, trimmed and bounded, and stands in for a missing one", () => {
    expect(parseRequestHuman(JSON.stringify({ reason: "  Enter the code " }))).toEqual({ reason: "Enter the code" });
    expect(parseRequestHuman(JSON.stringify({ reason: "x".repeat(5000) })).reason).toHaveLength(2000);
    expect(parseRequestHuman("{}").reason).toMatch(/without saying why/);
    expect(parseRequestHuman("not json").reason).toBe("not json");
  });
});
