// @needs nothing
// Claude's computer actions <-> the caller's computer_call actions, both ways,
// in both coordinate spaces (lib/models/responses/native-computer-use).
import { describe, expect, it } from "vitest";
import { actionSpaceOf } from "@/lib/models/responses/action-space";
import {
  splitCallId,
  toCallerActions,
  toClaudeAction,
  type CallerAction,
  type ClaudeAction,
} from "@/lib/models/responses/native-computer-use/claude-actions";
import { claudeComputerVersion } from "@/lib/models/responses/native-computer-use/claude-computer";

const normalized = actionSpaceOf({ type: "computer_use", display_width: 1280, display_height: 720 });
const pixels = actionSpaceOf({ type: "computer_use_preview", display_width: 1280, display_height: 720 });

const caller = (input: ClaudeAction, space = pixels, cursor?: [number, number]) =>
  toCallerActions(input, space, cursor).map((c) => c.action);

/** Claude's action, through the caller's calls, back again. */
function roundTrip(input: ClaudeAction, space = pixels): ClaudeAction {
  const calls = toCallerActions(input, space, undefined);
  const { tag } = splitCallId(`toolu_1${calls[0]!.suffix}`);
  return toClaudeAction(
    calls.map((c) => c.action as CallerAction),
    tag,
    space,
  );
}

describe("Claude actions as the caller's actions", () => {
  it("rescales points to 0-1000 for computer_use and keeps pixels for computer_use_preview", () => {
    const click = { action: "left_click", coordinate: [640, 360] as [number, number] };
    expect(caller(click, normalized)).toEqual([{ type: "click", button: "left", x: 500, y: 500 }]);
    expect(caller(click, pixels)).toEqual([{ type: "click", button: "left", x: 640, y: 360 }]);
  });

  it("maps every action of computer_20250124", () => {
    const at = [10, 20] as [number, number];
    expect(caller({ action: "screenshot" })).toEqual([{ type: "screenshot" }]);
    expect(caller({ action: "middle_click", coordinate: at })).toEqual([
      { type: "click", button: "wheel", x: 10, y: 20 },
    ]);
    expect(caller({ action: "left_click", coordinate: at, text: "shift" })).toEqual([
      { type: "click", button: "left", x: 10, y: 20, keys: ["shift"] },
    ]);
    expect(caller({ action: "double_click", coordinate: at })).toEqual([{ type: "double_click", x: 10, y: 20 }]);
    expect(caller({ action: "mouse_move", coordinate: at })).toEqual([{ type: "move", x: 10, y: 20 }]);
    expect(caller({ action: "left_mouse_down" })).toEqual([{ type: "mouse_down", button: "left" }]);
    expect(caller({ action: "left_mouse_up" })).toEqual([{ type: "mouse_up", button: "left" }]);
    expect(caller({ action: "type", text: "hi" })).toEqual([{ type: "type", text: "hi" }]);
    expect(caller({ action: "key", text: "ctrl+shift+t" })).toEqual([
      { type: "keypress", keys: ["ctrl", "shift", "t"] },
    ]);
    expect(caller({ action: "key", text: "+" })).toEqual([{ type: "keypress", keys: ["+"] }]);
    expect(caller({ action: "wait", duration: 2 })).toEqual([{ type: "wait", ms: 2000 }]);
    expect(caller({ action: "scroll", coordinate: at, scroll_direction: "left", scroll_amount: 2 })).toEqual([
      { type: "scroll", x: 10, y: 20, scroll_x: -200, scroll_y: 0 },
    ]);
    expect(caller({ action: "hold_key", text: "shift", duration: 0.5 })).toEqual([
      { type: "key_down", keys: ["shift"] },
      { type: "wait", ms: 500 },
      { type: "key_up", keys: ["shift"] },
    ]);
    expect(caller({ action: "cursor_position" })).toEqual([{ type: "screenshot" }]);
  });

  it("acts where the pointer is when Claude names no point", () => {
    expect(caller({ action: "left_click" })).toEqual([
      { type: "mouse_down", button: "left" },
      { type: "mouse_up", button: "left" },
    ]);
    expect(caller({ action: "scroll", scroll_direction: "up", scroll_amount: 1 }, pixels, [5, 6])).toEqual([
      { type: "scroll", x: 5, y: 6, scroll_x: 0, scroll_y: -100 },
    ]);
  });

  it("folds every action back into the Claude action it came from", () => {
    const cases: ClaudeAction[] = [
      { action: "left_click", coordinate: [640, 360] },
      { action: "right_click", coordinate: [1, 2] },
      { action: "triple_click", coordinate: [3, 4] },
      { action: "left_click_drag", start_coordinate: [1, 2], coordinate: [30, 40] },
      { action: "key", text: "ctrl+a" },
      { action: "hold_key", text: "shift", duration: 1.5 },
      { action: "scroll", coordinate: [5, 6], scroll_direction: "down", scroll_amount: 4 },
      { action: "left_click" },
      { action: "cursor_position" },
      { action: "wait", duration: 3 },
    ];
    for (const input of cases) expect(roundTrip(input)).toEqual(input);
    expect(roundTrip({ action: "left_click", coordinate: [640, 360] }, normalized)).toEqual({
      action: "left_click",
      coordinate: [640, 360],
    });
  });
});

describe("the computer tool version of a Claude model", () => {
  it.each([
    ["claude-sonnet-4-5", "computer_20250124"],
    ["claude-sonnet-4-20250514", "computer_20250124"],
    ["claude-3-7-sonnet-latest", "computer_20250124"],
    ["claude-haiku-4-5-20251001", "computer_20250124"],
    ["claude-opus-4-5-20251101", "computer_20251124"],
    ["claude-opus-4-6", "computer_20251124"],
    ["claude-sonnet-4-6", "computer_20251124"],
  ])("%s takes %s", (model, version) => {
    expect(claudeComputerVersion(model)).toBe(version);
  });
});
