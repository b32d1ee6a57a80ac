// @needs nothing
// The pure pieces behind GET /computers/{id}/events: the per-session hub
// (SessionEvents) and the SSE body builder (sseStream).
import { describe, expect, it } from "vitest";
import { sseStream } from "@/lib/api/sse";
import { SessionEvents, type SessionEvent } from "@/lib/computers/events/session-events";

const exit = (id: string): SessionEvent => ({ event: "exec_exit", data: { request_id: id, exit_code: 0 } });
/** As delivered: every event carries the time it was published (a replay shows when things ran). */
const stamped = (e: SessionEvent) => ({
  ...e,
  data: { ...e.data, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
});

describe("SessionEvents", () => {
  it("delivers a session's events only to its own subscribers, until they unsubscribe", () => {
    const hub = new SessionEvents();
    const a: SessionEvent[] = [];
    const b: SessionEvent[] = [];
    const stopA = hub.subscribe("comp_a", (e) => a.push(e));
    hub.subscribe("comp_b", (e) => b.push(e));
    hub.publish("comp_a", exit("r1"));
    stopA();
    hub.publish("comp_a", exit("r2"));
    expect(a).toEqual([stamped(exit("r1"))]);
    expect(b).toEqual([]);
    expect(hub.watched("comp_a")).toBe(false);
    expect(hub.subscriberCount).toBe(1);
  });

  it("ends every subscription of a session with `ended`, and survives a throwing listener", () => {
    const hub = new SessionEvents();
    const seen: SessionEvent[] = [];
    hub.subscribe("comp_a", () => {
      throw new Error("broken subscriber");
    });
    hub.subscribe("comp_a", (e) => seen.push(e));
    hub.end("comp_a", "deleted");
    hub.publish("comp_a", exit("late"));
    expect(seen).toEqual([stamped({ event: "ended", data: { reason: "deleted" } })]);
    expect(hub.subscriberCount).toBe(0);
  });
});

describe("SessionEvents timestamps", () => {
  it("keeps a publisher's own timestamp, and stamps the events that have none (replays included)", () => {
    const hub = new SessionEvents();
    const at = "2026-01-02T03:04:05.000Z";
    hub.publish("comp_a", {
      event: "action_request",
      data: { request_id: "r1", action: { type: "wait" }, timestamp: at },
    });
    const before = Date.now();
    hub.publish("comp_a", exit("r2"));
    const [first, second] = hub.history.since("comp_a", 0);
    expect((first!.event.data as { timestamp: string }).timestamp).toBe(at);
    expect(Date.parse((second!.event.data as { timestamp: string }).timestamp)).toBeGreaterThanOrEqual(before - 1);
  });
});

describe("sseStream", () => {
  it("writes named and unnamed events and comments, and runs the cleanup once on close", async () => {
    let cleanups = 0;
    const body = sseStream((channel) => {
      channel.comment("subscribed");
      channel.send("exec_exit", { exit_code: 0 });
      channel.send(null, { image: 1 });
      channel.close();
      return () => cleanups++;
    });
    expect(await new Response(body).text()).toBe(
      ': subscribed\n\nevent: exec_exit\ndata: {"exit_code":0}\n\ndata: {"image":1}\n\n',
    );
    expect(cleanups).toBe(1);
  });

  it("runs the cleanup when the client cancels or the request aborts", async () => {
    let cleanups = 0;
    const cancelled = sseStream(() => () => cleanups++);
    await cancelled.cancel();
    const abort = new AbortController();
    sseStream(() => () => cleanups++, abort.signal);
    abort.abort();
    abort.abort();
    expect(cleanups).toBe(2);
  });
});
