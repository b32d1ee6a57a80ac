// @needs nothing
// The session page's live-viewer input (components/session/live-input.ts):
// canvas → frame coordinates, buttons, keys and wheel deltas, and every
// message it builds is one the server's parser (parseLiveInput) accepts.
import { describe, expect, it } from "vitest";
import { buttonName, keyMessage, toFramePoint, wheelPixels } from "@/components/session/live-input";
import { parseLiveInput } from "@/lib/computers/live/input-message";

const plain = { ctrlKey: false, altKey: false, metaKey: false };

describe("toFramePoint", () => {
  const frame = { width: 1280, height: 720 };
  it("scales a point on a canvas shown at half size back to frame pixels", () => {
    expect(toFramePoint(10 + 320, 50 + 180, { left: 10, top: 50, width: 640, height: 360 }, frame)).toEqual({
      x: 640,
      y: 360,
    });
  });
  it("scales up when the canvas is shown smaller than the frame on a phone", () => {
    expect(toFramePoint(358, 0, { left: 0, top: 0, width: 358, height: 201.375 }, frame)).toEqual({ x: 1279, y: 0 });
  });
  it("keeps points outside the canvas inside the frame", () => {
    expect(toFramePoint(-5, 9999, { left: 0, top: 0, width: 640, height: 360 }, frame)).toEqual({ x: 0, y: 719 });
  });
});

describe("keyMessage", () => {
  it("sends a typed character as text on key down only", () => {
    expect(keyMessage({ key: "A", ...plain }, "down")).toEqual({ type: "text", text: "A" });
    expect(keyMessage({ key: "A", ...plain }, "up")).toBeNull();
    expect(keyMessage({ key: " ", ...plain }, "down")).toEqual({ type: "text", text: " " });
  });
  it("sends named keys and shortcuts as key down/up", () => {
    expect(keyMessage({ key: "Enter", ...plain }, "down")).toEqual({ type: "key", action: "down", key: "Enter" });
    expect(keyMessage({ key: "Control", ...plain, ctrlKey: true }, "up")).toEqual({
      type: "key",
      action: "up",
      key: "Control",
    });
    expect(keyMessage({ key: "C", ...plain, ctrlKey: true }, "down")).toEqual({
      type: "key",
      action: "down",
      key: "c",
    });
  });
  it("drops keys that name nothing the session could press", () => {
    expect(keyMessage({ key: "Dead", ...plain }, "down")).toBeNull();
    expect(keyMessage({ key: "Unidentified", ...plain }, "down")).toBeNull();
  });
  it("builds only messages the server accepts", () => {
    const messages = [
      keyMessage({ key: "é", ...plain }, "down"),
      keyMessage({ key: "ArrowLeft", ...plain }, "down"),
      keyMessage({ key: "F5", ...plain }, "up"),
      {
        type: "pointer",
        action: "down",
        ...toFramePoint(5, 5, { left: 0, top: 0, width: 10, height: 10 }, { width: 800, height: 600 }),
        button: buttonName(0),
      },
      { type: "wheel", x: 1, y: 2, dx: 0, dy: wheelPixels(3, 1, 600) },
    ];
    for (const message of messages) expect(() => parseLiveInput(JSON.stringify(message))).not.toThrow();
  });
});

describe("buttonName and wheelPixels", () => {
  it("names the three buttons and ignores the others", () => {
    expect([0, 1, 2, 3].map(buttonName)).toEqual(["left", "middle", "right", null]);
  });
  it("turns lines and pages into pixels", () => {
    expect(wheelPixels(3, 1, 600)).toBe(120);
    expect(wheelPixels(-1, 2, 600)).toBe(-600);
    expect(wheelPixels(53.5, 0, 600)).toBe(54);
  });
});
