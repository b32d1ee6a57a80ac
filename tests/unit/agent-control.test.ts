// @needs nothing
// Pure parts of the agent loop: the 0–1000 → pixel rescaling of model actions,
// the pause/stop/message control the loop waits on, and exit codes.
import { describe, expect, it } from "vitest";
import { toPixels } from "@/lib/agent/computer";
import { TaskControl, TaskInterrupted, type TaskEvent } from "@/lib/agent/control";
import { exitCodeOf } from "@/lib/agent/present";

describe("toPixels", () => {
  const display = { width: 1280, height: 720 };
  it("rescales points, drag paths and ends by display/1000, leaving other fields", () => {
    expect(toPixels({ type: "click", x: 508, y: 451, button: "left" }, display)).toEqual({
      type: "click",
      x: 650,
      y: 325,
      button: "left",
    });
    expect(
      toPixels(
        {
          type: "drag",
          path: [
            { x: 0, y: 0 },
            { x: 1000, y: 1000 },
          ],
        },
        display,
      ),
    ).toEqual({
      type: "drag",
      path: [
        { x: 0, y: 0 },
        { x: 1280, y: 720 },
      ],
    });
    expect(toPixels({ type: "scroll", x: 500, y: 500, scroll_y: 300 }, display)).toEqual({
      type: "scroll",
      x: 640,
      y: 360,
      scroll_y: 300,
    });
    expect(toPixels({ type: "type", text: "x" }, display)).toEqual({ type: "type", text: "x" });
  });
  it("names the example harness's navigate as /execute's go_to_url", () => {
    expect(toPixels({ type: "navigate", url: "http://127.0.0.1/" }, display)).toEqual({
      type: "go_to_url",
      url: "http://127.0.0.1/",
    });
  });
});

describe("TaskControl", () => {
  it("holds at the gate while paused, announces paused once holding, and lets go on resume", async () => {
    const control = new TaskControl();
    const events: TaskEvent["event"][] = [];
    control.subscribe((e) => events.push(e.event));
    control.pause();
    expect(events).toEqual([]);
    let passed = false;
    const gate = control.gate().then(() => (passed = true));
    await Promise.resolve();
    expect(events).toEqual(["paused"]);
    expect(passed).toBe(false);
    control.resume();
    await gate;
    expect(passed).toBe(true);
    expect(events).toEqual(["paused", "resumed"]);
  });

  it("an interruption aborts the signal and makes the gate throw, even while paused", async () => {
    const control = new TaskControl();
    control.pause();
    const gate = control.gate();
    control.interrupt("stopped", "Stopped on request");
    await expect(gate).rejects.toBeInstanceOf(TaskInterrupted);
    expect(control.signal.aborted).toBe(true);
    expect(control.interrupted?.reason).toBe("stopped");
    control.interrupt("server_shutdown", "later"); // the first reason stays
    expect(control.interrupted?.reason).toBe("stopped");
  });

  it("injected messages are taken once, oldest first", () => {
    const control = new TaskControl();
    expect(control.inject("a")).toBe(1);
    expect(control.inject("b")).toBe(2);
    expect(control.takeMessages()).toEqual(["a", "b"]);
    expect(control.takeMessages()).toEqual([]);
  });
});

describe("exitCodeOf", () => {
  it("is 0 for completed, 1 for failed or stopped, absent while live", () => {
    expect(exitCodeOf("completed")).toBe(0);
    expect(exitCodeOf("failed")).toBe(1);
    expect(exitCodeOf("stopped")).toBe(1);
    expect(exitCodeOf("running")).toBeUndefined();
    expect(exitCodeOf("paused")).toBeUndefined();
  });
});
