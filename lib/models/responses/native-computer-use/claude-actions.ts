// Claude's computer-tool actions (computer_20250124 and later: pixels of the
// display the tool declares) and the caller's computer_call actions (the
// `computer_use` 0-1000 space or `computer_use_preview` pixels, `ActionSpace`),
// both ways. Most map one to one; the few the caller's union lacks become a
// short run of calls whose call_ids carry the Claude action's name, so the
// run folds back into the one tool_use it came from (docs/computer-use.md "Claude").
import type { ActionSpace } from "@/lib/models/responses/action-space";

export interface ClaudeAction {
  action: string;
  coordinate?: [number, number];
  start_coordinate?: [number, number];
  text?: string;
  duration?: number;
  scroll_amount?: number;
  scroll_direction?: "up" | "down" | "left" | "right";
}

export type CallerAction = Record<string, unknown> & { type: string };
export type Point = [number, number];

/** One notch of Claude's scroll_amount, in pixels (a mouse wheel notch in Chromium). */
export const SCROLL_NOTCH_PX = 100;
/** Claude actions that become a run of calls (or one that does not say what it was): named in the call ids. */
const TAGGED = new Set(["triple_click", "hold_key", "cursor_position"]);
/** Separates a tool_use id from the name of the Claude action its calls were made from. */
const TAG = "~";

/** Claude's pixel point in the caller's space (rounded; clamped later with every computer_call). */
export function toCallerPoint([x, y]: Point, space: ActionSpace): { x: number; y: number } {
  return space.normalized
    ? { x: Math.round((x * 1000) / space.width), y: Math.round((y * 1000) / space.height) }
    : { x, y };
}

export function toClaudePoint(action: Record<string, unknown>, space: ActionSpace): Point | undefined {
  if (typeof action.x !== "number" || typeof action.y !== "number") return undefined;
  return space.normalized
    ? [Math.round((action.x * space.width) / 1000), Math.round((action.y * space.height) / 1000)]
    : [action.x, action.y];
}

const keysOf = (text: string | undefined): string[] =>
  !text ? [] : text === "+" ? ["+"] : text.split("+").filter((key) => key !== "");

const centre = (space: ActionSpace): Point => [Math.floor(space.width / 2), Math.floor(space.height / 2)];

const BUTTONS: Record<string, string> = { left_click: "left", right_click: "right", middle_click: "wheel" };

/**
 * A Claude action as the caller's actions, in order, with the call-id suffix each carries. `cursor` is
 * where the pointer last went (Claude pixels): actions that name no point act there.
 */
export function toCallerActions(
  input: ClaudeAction,
  space: ActionSpace,
  cursor: Point | undefined,
): { suffix: string; action: CallerAction }[] {
  const at = (point: Point | undefined) => toCallerPoint(point ?? cursor ?? centre(space), space);
  const modifiers = keysOf(input.text);
  const held = modifiers.length ? { keys: modifiers } : {};
  const one = (action: CallerAction) => [{ suffix: "", action }];
  const run = (actions: CallerAction[]) =>
    actions.map((action, i) => ({ suffix: `${TAG}${input.action}${TAG}${i + 1}`, action }));
  switch (input.action) {
    case "left_click":
    case "right_click":
    case "middle_click": {
      const button = BUTTONS[input.action]!;
      // No point: a press and release where the pointer is, as Claude means it.
      if (!input.coordinate)
        return run([
          { type: "mouse_down", button },
          { type: "mouse_up", button },
        ]);
      return one({ type: "click", button, ...at(input.coordinate), ...held });
    }
    case "double_click":
      return one({ type: "double_click", ...at(input.coordinate), ...held });
    case "triple_click": {
      // The caller's union has no triple click: a double click, then a third click on the same point.
      const point = at(input.coordinate);
      return run([
        { type: "double_click", ...point },
        { type: "click", button: "left", ...point },
      ]);
    }
    case "mouse_move":
      return one({ type: "move", ...at(input.coordinate) });
    case "left_click_drag":
      return one({ type: "drag", path: [at(input.start_coordinate), at(input.coordinate)] });
    case "left_mouse_down":
      return one({ type: "mouse_down", button: "left" });
    case "left_mouse_up":
      return one({ type: "mouse_up", button: "left" });
    case "scroll": {
      const amount = (input.scroll_amount ?? 3) * SCROLL_NOTCH_PX;
      const direction = input.scroll_direction ?? "down";
      const scroll_x = direction === "left" ? -amount : direction === "right" ? amount : 0;
      const scroll_y = direction === "up" ? -amount : direction === "down" ? amount : 0;
      return one({ type: "scroll", ...at(input.coordinate), scroll_x, scroll_y, ...held });
    }
    case "type":
      return one({ type: "type", text: input.text ?? "" });
    case "key":
      return one({ type: "keypress", keys: keysOf(input.text) });
    case "hold_key": {
      const keys = keysOf(input.text);
      return run([
        { type: "key_down", keys },
        { type: "wait", ms: Math.min(60_000, Math.round((input.duration ?? 1) * 1000)) },
        { type: "key_up", keys },
      ]);
    }
    case "wait":
      return one({ type: "wait", ms: Math.min(60_000, Math.round((input.duration ?? 1) * 1000)) });
    case "cursor_position":
      // Nothing to do on the screen: a screenshot, and the position goes back with it (`toClaudeResult`).
      return run([{ type: "screenshot" }]);
    default:
      return one({ type: "screenshot" });
  }
}

/** A call id as the tool_use id it came from and the Claude action named in it, if any. */
export function splitCallId(callId: string): { toolUseId: string; tag?: string } {
  const [toolUseId = callId, tag] = callId.split(TAG);
  return { toolUseId, tag: tag || undefined };
}

/** The caller's actions of one tool_use (a run when `tag` names the Claude action) as Claude's action input. */
export function toClaudeAction(actions: CallerAction[], tag: string | undefined, space: ActionSpace): ClaudeAction {
  const first = actions[0] ?? { type: "screenshot" };
  const point = toClaudePoint(first, space);
  if (tag && (TAGGED.has(tag) || tag in BUTTONS)) {
    if (tag === "hold_key") {
      const wait = actions.find((a) => a.type === "wait");
      const ms = typeof wait?.ms === "number" ? wait.ms : 1000;
      return { action: tag, text: joinKeys(first.keys), duration: ms / 1000 };
    }
    return point ? { action: tag, coordinate: point } : { action: tag };
  }
  const coordinate = point ? { coordinate: point } : {};
  const modifiers = Array.isArray(first.keys) && first.keys.length ? { text: joinKeys(first.keys) } : {};
  switch (first.type) {
    case "click": {
      const name = first.button === "right" ? "right_click" : first.button === "wheel" ? "middle_click" : "left_click";
      return { action: name, ...coordinate, ...modifiers };
    }
    case "double_click":
      return { action: "double_click", ...coordinate, ...modifiers };
    case "move":
      return { action: "mouse_move", ...coordinate };
    case "drag": {
      const path = Array.isArray(first.path) ? (first.path as Record<string, unknown>[]) : [];
      const start = path[0] && toClaudePoint(path[0], space);
      const end = path.at(-1) && toClaudePoint(path.at(-1)!, space);
      return {
        action: "left_click_drag",
        ...(start ? { start_coordinate: start } : {}),
        ...(end ? { coordinate: end } : {}),
      };
    }
    case "keypress":
    case "key_down":
    case "key_up":
      return { action: "key", text: joinKeys(first.keys ?? first.key) };
    case "type":
    case "point_and_type":
      return { action: "type", text: typeof first.text === "string" ? first.text : "" };
    case "scroll": {
      const dx = Number(first.scroll_x ?? 0);
      const dy = Number(first.scroll_y ?? 0);
      const vertical = Math.abs(dy) >= Math.abs(dx);
      const amount = Math.max(1, Math.round(Math.abs(vertical ? dy : dx) / SCROLL_NOTCH_PX));
      const scroll_direction = vertical ? (dy < 0 ? "up" : "down") : dx < 0 ? "left" : "right";
      return { action: "scroll", ...coordinate, scroll_direction, scroll_amount: amount, ...modifiers };
    }
    case "mouse_down":
      return { action: "left_mouse_down" };
    case "mouse_up":
      return { action: "left_mouse_up" };
    case "wait":
      return { action: "wait", duration: typeof first.ms === "number" ? first.ms / 1000 : 1 };
    default:
      return { action: "screenshot" };
  }
}

function joinKeys(keys: unknown): string {
  if (Array.isArray(keys)) return keys.map(String).join("+");
  return typeof keys === "string" ? keys : "";
}

/** Where the pointer is after a Claude action (Claude pixels), or where it was. */
export function cursorAfter(input: ClaudeAction, cursor: Point | undefined): Point | undefined {
  return input.coordinate ?? cursor;
}
