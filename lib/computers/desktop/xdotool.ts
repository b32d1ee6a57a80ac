// Actions → xdotool argument lists (pure; unit tested). Every command that has a
// delay gets `--delay 0` (xdotool's defaults, 12 ms per key, make a 20-character
// type take 150 ms instead of 11), except the gap inside a double click
// (`DOUBLE_CLICK_GAP_MS`).
import { ActionError } from "@/lib/computers/actions/action-error";
import type { Action, ActionOf } from "@/lib/computers/actions/actions";
import { canonicalKey, type CanonicalKey } from "@/lib/computers/sessions/keys";

// Canonical key names (`canonicalKey`) → X keysyms.
const KEYSYMS: Record<CanonicalKey, string> = {
  Control: "ctrl",
  Shift: "shift",
  Alt: "alt",
  Meta: "super",
  Enter: "Return",
  Escape: "Escape",
  Tab: "Tab",
  Backspace: "BackSpace",
  Delete: "Delete",
  Insert: "Insert",
  Home: "Home",
  End: "End",
  PageUp: "Prior",
  PageDown: "Next",
  ArrowUp: "Up",
  ArrowDown: "Down",
  ArrowLeft: "Left",
  ArrowRight: "Right",
  CapsLock: "Caps_Lock",
};
// Printable characters whose keysym name differs from the character.
const CHAR_KEYSYMS: Record<string, string> = {
  " ": "space",
  "+": "plus",
  "-": "minus",
  "=": "equal",
  "/": "slash",
  "\\": "backslash",
  ".": "period",
  ",": "comma",
  ";": "semicolon",
  ":": "colon",
  "'": "apostrophe",
  '"': "quotedbl",
  "`": "grave",
  "~": "asciitilde",
  "!": "exclam",
  "@": "at",
  "#": "numbersign",
  $: "dollar",
  "%": "percent",
  "^": "asciicircum",
  "&": "ampersand",
  "*": "asterisk",
  "(": "parenleft",
  ")": "parenright",
  "[": "bracketleft",
  "]": "bracketright",
  "{": "braceleft",
  "}": "braceright",
  "<": "less",
  ">": "greater",
  "?": "question",
  _: "underscore",
  "|": "bar",
};

export function toKeysym(name: string, param = "keys"): string {
  const key = canonicalKey(name, param);
  if (Object.hasOwn(KEYSYMS, key)) return KEYSYMS[key as CanonicalKey];
  return CHAR_KEYSYMS[key] ?? key; // other characters, F1–F24 and raw keysym names are themselves
}

const BUTTONS = { left: 1, middle: 2, wheel: 2, right: 3, back: 8, forward: 9 } as const;
/** Pixels per wheel notch: scroll deltas are pixels (like the browser's), xdotool scrolls in notches. */
export const PIXELS_PER_NOTCH = 100;
const MAX_NOTCHES = 50;

const xy = (x: number, y: number) => [String(Math.round(x)), String(Math.round(y))];
const move = (x: number, y: number) => ["mousemove", ...xy(x, y)];
/** Seconds between the steps of a drag (xdotool `sleep`). */
const DRAG_PAUSE = "0.05";
/**
 * The window manager holds every press on a window (openbox's click-to-focus grab), focuses and raises, then
 * replays it. Input sent before the replay is queued behind it, and openbox drops a second press from that
 * queue: with no gap, 3 to 5 of 30 presses in back-to-back click/double-click rounds never reached the window;
 * with `DOUBLE_CLICK_GAP_MS` (xdotool's own default, a person's pace, inside the 200 ms double-click time of X
 * toolkits) none did, also with the CPU saturated. Keys typed right after a click overtook it, so
 * `point_and_type` waits `CLICK_SETTLE` seconds before typing. See docs/desktops.md.
 */
const DOUBLE_CLICK_GAP_MS = "100";
const CLICK_SETTLE = "0.1";

function notches(delta: number): number {
  return delta === 0 ? 0 : Math.min(MAX_NOTCHES, Math.max(1, Math.round(Math.abs(delta) / PIXELS_PER_NOTCH)));
}

function scroll(a: ActionOf<"scroll">): string[] {
  const args = a.x !== undefined && a.y !== undefined ? move(a.x, a.y) : [];
  const steps: [number, number][] = [
    [notches(a.dy), a.dy > 0 ? 5 : 4],
    [notches(a.dx), a.dx > 0 ? 7 : 6],
  ];
  for (const [count, button] of steps) {
    if (count) args.push("click", "--repeat", String(count), "--delay", "0", String(button));
  }
  return args;
}

const BROWSER_ONLY = new Set(["go_to_url", "get_html_content", "set_viewport", "change_proxy", "set_files"]);
const TABS = new Set(["list_tabs", "new_tab", "switch_tab", "close_tab"]);

/**
 * OpenAI's held `keys` around a pointer action: keydown before, keyup (reversed) after, in one chained
 * xdotool call (each key command stops at the next command name, so no `--` here: keysyms never start with "-").
 */
function holding(keys: string[] | undefined, args: string[]): string[] {
  if (!keys?.length) return args;
  const syms = keys.map((key) => toKeysym(key));
  return ["keydown", "--delay", "0", ...syms, ...args, "keyup", "--delay", "0", ...[...syms].reverse()];
}

/** The xdotool arguments for an input action; null for `wait` and `screenshot` (handled by the caller). */
export function xdotoolArgs(action: Action): string[] | null {
  switch (action.type) {
    case "click":
      return holding(action.held_keys, [
        ...move(action.x, action.y),
        "click",
        "--delay",
        "0",
        String(BUTTONS[action.button]),
      ]);
    case "double_click":
      return holding(action.held_keys, [
        ...move(action.x, action.y),
        "click",
        "--repeat",
        "2",
        "--delay",
        DOUBLE_CLICK_GAP_MS,
        "1",
      ]);
    case "right_click":
      return [...move(action.x, action.y), "click", "--delay", "0", "3"];
    case "move":
      return holding(action.held_keys, move(action.x, action.y));
    case "point_and_type":
      return [
        ...move(action.x, action.y),
        "click",
        "--delay",
        "0",
        "1",
        ...(action.text ? ["sleep", CLICK_SETTLE, "type", "--delay", "0", "--", action.text] : []),
      ];
    case "mouse_down":
    case "mouse_up": {
      const at = action.x !== undefined && action.y !== undefined ? move(action.x, action.y) : [];
      return [...at, action.type === "mouse_down" ? "mousedown" : "mouseup", String(BUTTONS[action.button])];
    }
    case "drag": {
      const [first, ...rest] = action.path;
      // A pause after the press and between points: the window manager takes the press first
      // (click-to-focus) and replays it, and a motion sent before that reaches nobody.
      const points = rest.flatMap((p) => [...move(p.x, p.y), "sleep", DRAG_PAUSE]);
      return holding(action.held_keys, [
        ...move(first.x, first.y),
        "mousedown",
        "1",
        "sleep",
        DRAG_PAUSE,
        ...points,
        "mouseup",
        "1",
      ]);
    }
    case "type":
      return action.text ? ["type", "--delay", "0", "--", action.text] : [];
    case "keypress":
      return ["key", "--delay", "0", "--", action.keys.map((key) => toKeysym(key)).join("+")];
    case "key_down":
      return ["keydown", "--delay", "0", "--", ...action.keys.map((key) => toKeysym(key))];
    case "key_up":
      return ["keyup", "--delay", "0", "--", ...[...action.keys].reverse().map((key) => toKeysym(key))];
    case "scroll":
      return holding(action.held_keys, scroll(action));
    case "wait":
    case "screenshot":
      return null;
    default:
      if (TABS.has(action.type))
        throw new ActionError("wrong_kind", "Tabs are for browser sessions; this is a desktop session");
      if (BROWSER_ONLY.has(action.type)) {
        throw new ActionError(
          "not_supported",
          `'${action.type}' is for browser sessions; desktop sessions do not support it`,
        );
      }
      throw new ActionError(
        "not_supported",
        `'${(action as { type: string }).type}' is not supported on desktop sessions`,
      );
  }
}
