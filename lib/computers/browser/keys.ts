// Key names as agents send them (CUA's "CTRL", xdotool's "ctrl", "Return",
// "PageDown", "cmd"…) → Playwright's keyboard names. Unknown multi-character
// names pass through unchanged (Playwright rejects the invalid ones); single
// characters are typed as themselves.
const ALIASES: Record<string, string> = {
  ctrl: "Control", control: "Control", ctl: "Control",
  shift: "Shift",
  alt: "Alt", option: "Alt", opt: "Alt",
  cmd: "Meta", command: "Meta", meta: "Meta", super: "Meta", win: "Meta", windows: "Meta",
  enter: "Enter", return: "Enter",
  esc: "Escape", escape: "Escape",
  tab: "Tab",
  space: " ", spacebar: " ",
  backspace: "Backspace", bksp: "Backspace",
  delete: "Delete", del: "Delete",
  insert: "Insert", ins: "Insert",
  home: "Home", end: "End",
  pageup: "PageUp", page_up: "PageUp", pgup: "PageUp",
  pagedown: "PageDown", page_down: "PageDown", pgdn: "PageDown",
  up: "ArrowUp", arrowup: "ArrowUp", down: "ArrowDown", arrowdown: "ArrowDown",
  left: "ArrowLeft", arrowleft: "ArrowLeft", right: "ArrowRight", arrowright: "ArrowRight",
  capslock: "CapsLock",
  plus: "+", minus: "-",
};

export function toPlaywrightKey(name: string): string {
  if (name.length === 1) return name;
  const lower = name.toLowerCase();
  if (ALIASES[lower]) return ALIASES[lower];
  if (/^f([1-9]|1[0-9]|2[0-4])$/.test(lower)) return lower.toUpperCase();
  return name;
}

/** A chord (keys pressed together, modifiers first) as Playwright's "Control+Shift+T". */
export function toChord(keys: string[]): string {
  return keys.map(toPlaywrightKey).join("+");
}
