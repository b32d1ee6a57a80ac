// @needs nothing
// The task page's pure parts: an action as a person reads it (screen pixels),
// the mark drawn where it landed, durations, and the live-view input shown on
// the session timeline.
import { describe, expect, it } from "vitest";
import { markOf } from "@/components/tasks/step-shot";
import { formatDuration } from "@/components/tasks/task-facts";
import { describeAction } from "@/components/tasks/task-steps";
import { toPixels } from "@/lib/agent/computer";
import { liveInputEvent } from "@/lib/computers/events/live-input-event";

describe("task steps", () => {
  it("describes an action in the screen's pixels, not the model's 0–1000 space", () => {
    const screen = toPixels({ type: "click", x: 500, y: 500 }, { width: 1280, height: 720 });
    expect(describeAction(screen)).toBe("click at (640, 360)");
    expect(describeAction({ type: "type", text: "hello" })).toBe('type (text: "hello")');
    expect(describeAction(null)).toBe("answer");
  });

  it("marks a point, a drag's two ends, or a path; nothing for an action without one", () => {
    expect(markOf({ type: "click", x: 640, y: 360 })).toEqual({ points: [{ x: 640, y: 360 }] });
    expect(markOf({ type: "drag", start_x: 1, start_y: 2, end_x: 3, end_y: 4 })).toEqual({
      points: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
    });
    expect(
      markOf({
        type: "drag",
        path: [
          { x: 1, y: 2 },
          { x: 5, y: 6 },
        ],
      })?.points,
    ).toHaveLength(2);
    expect(markOf({ type: "keypress", keys: ["Enter"] })).toBeNull();
    expect(markOf(null)).toBeNull();
  });

  it("says how long a task took in words", () => {
    expect(formatDuration(340)).toBe("340 ms");
    expect(formatDuration(12_400)).toBe("12 s");
    expect(formatDuration(65_000)).toBe("1 min 5 s");
  });
});

describe("live-view input on the timeline", () => {
  it("keeps clicks, wheel turns, keys and text, not moves or releases", () => {
    expect(liveInputEvent({ type: "pointer", action: "down", x: 10.4, y: 20.6 })).toEqual({
      input: "click",
      x: 10,
      y: 21,
      button: "left",
    });
    expect(liveInputEvent({ type: "pointer", action: "move", x: 1, y: 1 })).toBeNull();
    expect(liveInputEvent({ type: "pointer", action: "up", x: 1, y: 1 })).toBeNull();
    expect(liveInputEvent({ type: "key", action: "up", key: "a" })).toBeNull();
    expect(liveInputEvent({ type: "key", action: "down", key: "a" })).toEqual({ input: "key", key: "a" });
    expect(liveInputEvent({ type: "text", text: "hi" })).toEqual({ input: "text", text: "hi" });
  });
});
