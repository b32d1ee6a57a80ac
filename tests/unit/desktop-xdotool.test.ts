// @needs nothing
import { describe, expect, it } from "vitest";
import { parseAction } from "@/lib/computers/actions/actions";
import { toKeysym, xdotoolArgs } from "@/lib/computers/desktop/xdotool";

const args = (action: Record<string, unknown>) => xdotoolArgs(parseAction(action));

describe("desktop actions → xdotool", () => {
  it("clicks with zero delay at rounded coordinates", () => {
    expect(args({ type: "click", x: 10.4, y: 20.6 })).toEqual(["mousemove", "10", "21", "click", "--delay", "0", "1"]);
    expect(args({ type: "click", x: 1, y: 2, button: "middle" })).toEqual([
      "mousemove",
      "1",
      "2",
      "click",
      "--delay",
      "0",
      "2",
    ]);
    expect(args({ type: "double_click", x: 1, y: 2 })).toEqual([
      "mousemove",
      "1",
      "2",
      "click",
      "--repeat",
      "2",
      "--delay",
      "100",
      "1",
    ]);
    expect(args({ type: "right_click", x: 1, y: 2 })).toEqual(["mousemove", "1", "2", "click", "--delay", "0", "3"]);
  });

  it("moves, clicks the side buttons, points and types, and holds keys around pointer actions", () => {
    expect(args({ type: "move", x: 5, y: 6 })).toEqual(["mousemove", "5", "6"]);
    expect(args({ type: "click", x: 1, y: 2, button: "back" })).toEqual([
      "mousemove",
      "1",
      "2",
      "click",
      "--delay",
      "0",
      "8",
    ]);
    expect(args({ type: "click", x: 1, y: 2, button: "forward" })).toEqual([
      "mousemove",
      "1",
      "2",
      "click",
      "--delay",
      "0",
      "9",
    ]);
    expect(args({ type: "point_and_type", x: 1, y: 2, text: "-x" })).toEqual([
      "mousemove",
      "1",
      "2",
      "click",
      "--delay",
      "0",
      "1",
      "sleep",
      "0.1",
      "type",
      "--delay",
      "0",
      "--",
      "-x",
    ]);
    expect(args({ type: "click", x: 1, y: 2, keys: ["shift", "ctrl"] })).toEqual([
      "keydown",
      "--delay",
      "0",
      "shift",
      "ctrl",
      "mousemove",
      "1",
      "2",
      "click",
      "--delay",
      "0",
      "1",
      "keyup",
      "--delay",
      "0",
      "ctrl",
      "shift",
    ]);
    expect(args({ type: "key_down", keys: ["shift", "a"] })).toEqual(["keydown", "--delay", "0", "--", "shift", "a"]);
    expect(args({ type: "key_up", keys: ["shift", "a"] })).toEqual(["keyup", "--delay", "0", "--", "a", "shift"]);
  });

  it("types text verbatim after --, with zero delay", () => {
    expect(args({ type: "type", text: "-rf /\nhi" })).toEqual(["type", "--delay", "0", "--", "-rf /\nhi"]);
    expect(args({ type: "type", text: "" })).toEqual([]);
  });

  it("maps key names and chords to keysyms", () => {
    expect(args({ type: "keypress", keys: ["CTRL", "Shift", "t"] })).toEqual([
      "key",
      "--delay",
      "0",
      "--",
      "ctrl+shift+t",
    ]);
    expect(args({ type: "keypress", key: "Enter" })).toEqual(["key", "--delay", "0", "--", "Return"]);
    expect(toKeysym("ArrowLeft")).toBe("Left");
    expect(toKeysym("PageDown")).toBe("Next");
    expect(toKeysym("/")).toBe("slash");
    expect(toKeysym("f5")).toBe("F5");
    expect(toKeysym("A")).toBe("A");
    expect(() => toKeysym("ctrl;rm")).toThrow(/Unknown key/);
    expect(args({ type: "key_down", key: "alt" })).toEqual(["keydown", "--delay", "0", "--", "alt"]);
  });

  it("scrolls in wheel notches of 100 px, at a point when given", () => {
    expect(args({ type: "scroll", dy: 250 })).toEqual(["click", "--repeat", "3", "--delay", "0", "5"]);
    expect(args({ type: "scroll", x: 5, y: 6, dy: -40, dx: 100 })).toEqual([
      "mousemove",
      "5",
      "6",
      "click",
      "--repeat",
      "1",
      "--delay",
      "0",
      "4",
      "click",
      "--repeat",
      "1",
      "--delay",
      "0",
      "7",
    ]);
    expect(args({ type: "scroll", scroll_y: 100000 })).toEqual(["click", "--repeat", "50", "--delay", "0", "5"]);
  });

  it("drags along a path and presses buttons", () => {
    expect(args({ type: "drag", x1: 1, y1: 2, x2: 3, y2: 4 })).toEqual([
      "mousemove",
      "1",
      "2",
      "mousedown",
      "1",
      "sleep",
      "0.05",
      "mousemove",
      "3",
      "4",
      "sleep",
      "0.05",
      "mouseup",
      "1",
    ]);
    expect(args({ type: "mouse_down" })).toEqual(["mousedown", "1"]);
    expect(args({ type: "mouse_up", x: 1, y: 1, button: "right" })).toEqual(["mousemove", "1", "1", "mouseup", "3"]);
  });

  it("leaves wait and screenshot to the caller and refuses browser-only actions", () => {
    expect(args({ type: "wait", ms: 5 })).toBeNull();
    expect(args({ type: "screenshot" })).toBeNull();
    expect(() => args({ type: "go_to_url", url: "https://example.com" })).toThrow(
      expect.objectContaining({ reason: "not_supported" }),
    );
    expect(() => args({ type: "get_html_content" })).toThrow(expect.objectContaining({ reason: "not_supported" }));
    expect(() => args({ type: "list_tabs" })).toThrow(expect.objectContaining({ reason: "wrong_kind" }));
  });
});
