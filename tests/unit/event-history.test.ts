// @needs nothing
// EventHistory and its use by SessionEvents: the replay behind /events' Last-Event-ID and ?since=.
import { describe, expect, it } from "vitest";
import { EventHistory, replayStart } from "@/lib/computers/events/event-history";
import { ENDED_HISTORIES_KEPT, SessionEvents, type SessionEvent } from "@/lib/computers/events/session-events";

const exit = (id: string): SessionEvent => ({ event: "exec_exit", data: { request_id: id, exit_code: 0 } });

describe("EventHistory", () => {
  it("numbers each session's events from 1 and keeps only the newest `limit`", () => {
    const history = new EventHistory<string>(3);
    for (const e of ["a", "b", "c", "d", "e"]) history.record("s1", e);
    history.record("s2", "x");
    expect(history.since("s1", 0)).toEqual([
      { id: 3, event: "c" },
      { id: 4, event: "d" },
      { id: 5, event: "e" },
    ]);
    expect(history.since("s1", 4)).toEqual([{ id: 5, event: "e" }]);
    expect(history.since("s2", 0)).toEqual([{ id: 1, event: "x" }]);
    history.forget("s1");
    expect(history.since("s1", 0)).toEqual([]);
    expect(history.sessionCount).toBe(1);
  });
});

describe("SessionEvents history", () => {
  // Also: keeps an ended session's history for review.
  it("keeps events published with nobody listening, gives listeners their number", () => {
    const hub = new SessionEvents();
    hub.publish("comp_a", exit("r1"));
    const ids: (number | undefined)[] = [];
    hub.subscribe("comp_a", (_e, id) => ids.push(id));
    hub.publish("comp_a", exit("r2"));
    expect(hub.history.since("comp_a", 0).map((k) => k.id)).toEqual([1, 2]);
    hub.end("comp_a", "deleted");
    expect(ids).toEqual([2, undefined]);
    hub.publish("comp_a", exit("late"));
    // A late event after the end starts no new history; the ended one stays, unchanged.
    expect(hub.history.since("comp_a", 0).map((k) => k.id)).toEqual([1, 2]);
  });

  it("forgets the oldest ended session's history once ENDED_HISTORIES_KEPT others ended after it", () => {
    const hub = new SessionEvents();
    for (let i = 0; i <= ENDED_HISTORIES_KEPT; i++) {
      hub.publish(`comp_${i}`, exit("r"));
      hub.end(`comp_${i}`, "deleted");
    }
    expect(hub.history.sessionCount).toBe(ENDED_HISTORIES_KEPT);
    expect(hub.history.since("comp_0", 0)).toEqual([]);
    expect(hub.history.since(`comp_${ENDED_HISTORIES_KEPT}`, 0)).toHaveLength(1);
  });
});

describe("replayStart", () => {
  it("prefers Last-Event-ID, accepts ?since=, and refuses what is not an event number", () => {
    expect(replayStart(null, null)).toBeNull();
    expect(replayStart(null, "0")).toBe(0);
    expect(replayStart("7", "0")).toBe(7);
    expect(() => replayStart(null, "yesterday")).toThrow(/since must be an event number/);
    expect(() => replayStart("-1", null)).toThrow(/Last-Event-ID/);
  });
});
