// @needs nothing
import { describe, expect, it } from "vitest";
import type { ComputerHandle } from "@/lib/computers/driver";
import type { LiveSession } from "@/lib/computers/sessions/live-session";
import { SessionEndBus, type SessionEnded } from "@/lib/computers/sessions/session-end";
import { endInOrder } from "@/lib/computers/sessions/session-teardown";

const ended: SessionEnded = {
  sessionId: "comp_1",
  organizationId: "org",
  kind: "browser",
  reason: "deleted",
  at: new Date(0),
};

describe("SessionEndBus", () => {
  it("calls subscribers in stage order, whatever order they subscribed in", async () => {
    const bus = new SessionEndBus();
    const heard: string[] = [];
    bus.subscribe("tasks", () => void heard.push("tasks"));
    bus.subscribe("cdp", () => void heard.push("cdp"));
    bus.subscribe("events", () => void heard.push("events"));
    bus.subscribe("live_view", () => void heard.push("live_view"));
    bus.subscribe("cdp", () => void heard.push("cdp-2"));
    bus.subscribe("usage", () => void heard.push("usage"));
    bus.subscribe("final_screenshot", () => void heard.push("final_screenshot"));
    await bus.publish(ended, () => {});
    expect(heard).toEqual(["events", "final_screenshot", "live_view", "cdp", "cdp-2", "usage", "tasks"]);
  });

  it("tells every subscriber before waiting for any, and waits for the slow ones", async () => {
    const bus = new SessionEndBus();
    const heard: string[] = [];
    let release!: () => void;
    bus.subscribe("live_view", () => new Promise<void>((resolve) => (heard.push("live_view"), (release = resolve))));
    bus.subscribe("cdp", () => void heard.push("cdp"));
    let done = false;
    const publishing = bus.publish(ended, () => {}).then(() => (done = true));
    expect(heard).toEqual(["live_view", "cdp"]);
    await Promise.resolve();
    expect(done).toBe(false);
    release();
    await publishing;
    expect(done).toBe(true);
  });

  it("reports a failing subscriber and still tells the rest", async () => {
    const bus = new SessionEndBus();
    const errors: string[] = [];
    const heard: string[] = [];
    bus.subscribe("events", () => {
      throw new Error("boom");
    });
    bus.subscribe("live_view", () => Promise.reject(new Error("late boom")));
    bus.subscribe("usage", () => void heard.push("usage"));
    await bus.publish(ended, (err, stage) => errors.push(`${stage}: ${(err as Error).message}`));
    expect(heard).toEqual(["usage"]);
    expect(errors).toEqual(["events: boom", "live_view: late boom"]);
  });

  it("unsubscribes", async () => {
    const bus = new SessionEndBus();
    const heard: string[] = [];
    const off = bus.subscribe("events", () => void heard.push("events"));
    off();
    await bus.publish(ended, () => {});
    expect(heard).toEqual([]);
    expect(bus.size).toBe(0);
  });
});

describe("a session's end in its documented order (docs/computers.md)", () => {
  /** A live session whose row write the test settles, a handle whose stop it records. */
  function ending() {
    const heard: string[] = [];
    let writeRow!: () => void;
    const live = {
      id: "comp_1",
      organizationId: "org",
      kind: "browser",
      persistent: false,
      saving: null,
      rowEnded: new Promise<void>((resolve) => (writeRow = () => (heard.push("row"), resolve()))),
    } as unknown as LiveSession;
    const handle = { stop: async () => (heard.push("stop"), null) } as unknown as ComputerHandle;
    return { heard, live, handle, writeRow };
  }

  it("marks the row terminated, then tells the subscribers, then stops the computer", async () => {
    const { heard, live, handle, writeRow } = ending();
    const bus = new SessionEndBus();
    bus.subscribe("tasks", ({ reason }) => void heard.push(`tasks: ${reason}`));
    bus.subscribe("events", ({ reason }) => void heard.push(`events: ${reason}`));
    const ended = endInOrder(live, "deleted", Promise.resolve(handle), bus);
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([]); // the row is not written yet: nobody hears the end before it
    writeRow();
    await ended;
    expect(heard).toEqual(["row", "events: deleted", "tasks: deleted", "stop"]);
  });

  it("still tells the subscribers and stops the computer when the row could not be written", async () => {
    const { heard, live, handle } = ending();
    live.rowEnded = Promise.reject(new Error("database down"));
    const bus = new SessionEndBus();
    bus.subscribe("usage", () => void heard.push("usage"));
    await endInOrder(live, "crashed", Promise.resolve(handle), bus);
    expect(heard).toEqual(["usage", "stop"]);
  });
});
