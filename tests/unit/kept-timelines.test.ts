// @needs nothing
// The kept timeline's bound (boundedTimeline, lib/computers/events/kept-timelines.ts): the newest events whose
// JSON fits are kept, oldest first, with their numbers; an empty history is an empty list.
import { describe, expect, it } from "vitest";
import { boundedTimeline } from "@/lib/computers/events/kept-timelines";
import type { SessionEvent } from "@/lib/computers/events/session-events";

const output = (id: number, data: string) => ({
  id,
  event: { event: "exec_output", data: { request_id: "req_1", data, is_stderr: false } } as SessionEvent,
});

describe("boundedTimeline", () => {
  it("keeps every event that fits, oldest first, with its number and data", () => {
    const parsed = JSON.parse(boundedTimeline([output(1, "a"), output(2, "b")]));
    expect(parsed).toEqual([
      { id: 1, event: "exec_output", data: { request_id: "req_1", data: "a", is_stderr: false } },
      { id: 2, event: "exec_output", data: { request_id: "req_1", data: "b", is_stderr: false } },
    ]);
  });

  it("drops the oldest events past the bound, never the newest", () => {
    const events = [1, 2, 3, 4].map((id) => output(id, "x".repeat(100)));
    const text = boundedTimeline(events, 400);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(400);
    expect(JSON.parse(text).map((e: { id: number }) => e.id)).toEqual([3, 4]);
  });

  it("writes an empty history as an empty list", () => {
    expect(boundedTimeline([])).toBe("[]");
  });
});
