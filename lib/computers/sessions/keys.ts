// Key names as agents send them (CUA's "CTRL", xdotool's "ctrl" and "Return",
// Playwright's "ArrowLeft", "Page_Down", "cmd", single characters…) → one
// canonical name (the W3C/Playwright spelling), which each driver then maps to
// its own: toPlaywrightKey and toKeysym. Both drivers accept exactly the names
// `canonicalKey` accepts.
import { ActionError } from "@/lib/computers/actions/action-error";

/** Canonical names of the named keys both drivers map. */
export const CANONICAL_KEYS = [
  "Control",
  "Shift",
  "Alt",
  "Meta",
  "Enter",
  "Escape",
  "Tab",
  "Backspace",
  "Delete",
  "Insert",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "CapsLock",
] as const;
export type CanonicalKey = (typeof CANONICAL_KEYS)[number];

// Lower-cased spellings → canonical name. Canonical names map to themselves (added below).
const ALIASES: Record<string, CanonicalKey | string> = {
  ctrl: "Control",
  ctl: "Control",
  control_l: "Control",
  control_r: "Control",
  shift_l: "Shift",
  shift_r: "Shift",
  option: "Alt",
  opt: "Alt",
  alt_l: "Alt",
  alt_r: "Alt",
  cmd: "Meta",
  command: "Meta",
  super: "Meta",
  win: "Meta",
  windows: "Meta",
  super_l: "Meta",
  super_r: "Meta",
  return: "Enter",
  esc: "Escape",
  bksp: "Backspace",
  del: "Delete",
  ins: "Insert",
  page_up: "PageUp",
  pgup: "PageUp",
  prior: "PageUp",
  page_down: "PageDown",
  pgdn: "PageDown",
  next: "PageDown",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  caps_lock: "CapsLock",
  space: " ",
  spacebar: " ",
  plus: "+",
  minus: "-",
};
for (const name of CANONICAL_KEYS) ALIASES[name.toLowerCase()] = name;

const FUNCTION_KEY = /^f([1-9]|1[0-9]|2[0-4])$/;
// Any other name is passed on as the driver's own key name (Playwright's "NumpadAdd",
// an X keysym like "XF86AudioPlay"); the driver answers if it does not know it.
const OTHER_NAME = /^[A-Za-z0-9_]+$/;

/**
 * The canonical name of a key: a single character as itself, a named key in its
 * canonical spelling, F1–F24, or another plain name unchanged. Anything else
 * (punctuation in a name, "ctrl+c" as one key) is an ActionError("invalid").
 */
export function canonicalKey(name: string, param = "keys"): string {
  if ([...name].length === 1) return name;
  const lower = name.toLowerCase();
  if (Object.hasOwn(ALIASES, lower)) return ALIASES[lower];
  if (FUNCTION_KEY.test(lower)) return lower.toUpperCase();
  if (OTHER_NAME.test(name)) return name;
  throw new ActionError(
    "invalid",
    `Unknown key '${name}': give one key per entry (a character, or a name like "Enter", "ctrl", "ArrowLeft", "F5")`,
    { param },
  );
}
