// Live-view input for a desktop session (GET /computers/{id}/ws). Pointer,
// wheel and keys go to the display as XTest events over one X connection
// (XTestConnection, opened on the first message): a socket write, where an
// xdotool run costs a process spawn through nsenter per message. Text, and keys
// the keyboard map lacks, go through xdotool with zero delays (xdotool's defaults
// add ~100 ms per click), which remaps a spare keycode for them; so does all
// input when the X connection cannot be opened. Keys go through the one
// normaliser (canonicalKey, toKeysym). Input runs beside the action queue, like a
// person at the keyboard would.
import type { LiveInput, LiveInputCapability } from "@/lib/computers/driver";
import type { HostDisplay } from "@/lib/computers/desktop/host-display";
import { PIXELS_PER_NOTCH, toKeysym } from "@/lib/computers/desktop/xdotool";
import { FAKE, XTestConnection, type FakeEvent, type KeyPlace } from "@/lib/computers/desktop/xtest";
import { canonicalKey, type CanonicalKey } from "@/lib/computers/sessions/keys";
import { liveViewStats } from "@/lib/computers/live/hub";
import { getLogger } from "@/lib/logger";

const BUTTONS = { left: 1, middle: 2, right: 3 } as const;
const MAX_NOTCHES = 50;
// X keysyms of the canonical key names (X11/keysymdef.h).
const KEYSYMS: Record<CanonicalKey, number> = {
  Control: 0xffe3,
  Shift: 0xffe1,
  Alt: 0xffe9,
  Meta: 0xffeb,
  Enter: 0xff0d,
  Escape: 0xff1b,
  Tab: 0xff09,
  Backspace: 0xff08,
  Delete: 0xffff,
  Insert: 0xff63,
  Home: 0xff50,
  End: 0xff57,
  PageUp: 0xff55,
  PageDown: 0xff56,
  ArrowUp: 0xff52,
  ArrowDown: 0xff54,
  ArrowLeft: 0xff51,
  ArrowRight: 0xff53,
  CapsLock: 0xffe5,
};
const SHIFT_KEYSYM = KEYSYMS.Shift;
const F1_KEYSYM = 0xffbe;

const notches = (delta: number) => Math.min(MAX_NOTCHES, Math.max(1, Math.round(Math.abs(delta) / PIXELS_PER_NOTCH)));

/** The xdotool arguments of one live input message (pure). */
export function liveInputArgs(input: LiveInput): string[] {
  switch (input.type) {
    case "pointer": {
      const move = ["mousemove", String(Math.round(input.x)), String(Math.round(input.y))];
      if (input.action === "move") return move;
      return [...move, input.action === "down" ? "mousedown" : "mouseup", String(BUTTONS[input.button ?? "left"])];
    }
    case "wheel": {
      const args = ["mousemove", String(Math.round(input.x)), String(Math.round(input.y))];
      if (input.dy) args.push("click", "--repeat", String(notches(input.dy)), "--delay", "0", input.dy > 0 ? "5" : "4");
      if (input.dx) args.push("click", "--repeat", String(notches(input.dx)), "--delay", "0", input.dx > 0 ? "7" : "6");
      return args;
    }
    case "key":
      return [input.action === "down" ? "keydown" : "keyup", "--delay", "0", "--", toKeysym(input.key, "key")];
    case "text":
      return ["type", "--delay", "0", "--", input.text];
  }
}

/** The X keysym of a key name, or null for names only xdotool knows (pure; throws on names canonicalKey refuses). */
export function keysymOf(name: string): number | null {
  const key = canonicalKey(name, "key");
  if (Object.hasOwn(KEYSYMS, key)) return KEYSYMS[key as CanonicalKey];
  const fn = /^F(\d+)$/.exec(key);
  if (fn) return F1_KEYSYM + Number(fn[1]) - 1;
  const chars = [...key];
  if (chars.length !== 1) return null;
  const code = chars[0]!.codePointAt(0)!;
  // Latin-1 keysyms are the code point; other characters are 0x01000000 + code point.
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ? code : 0x01000000 + code;
}

/**
 * The XTest events of a pointer or wheel message (pure). Buttons 4–7 are the
 * wheel's notches, as xdotool's `click 4` sends them.
 */
export function pointerEvents(input: Extract<LiveInput, { type: "pointer" | "wheel" }>): FakeEvent[] {
  const events: FakeEvent[] = [{ type: FAKE.motion, detail: 0, x: input.x, y: input.y }];
  if (input.type === "pointer") {
    if (input.action !== "move")
      events.push({
        type: input.action === "down" ? FAKE.buttonDown : FAKE.buttonUp,
        detail: BUTTONS[input.button ?? "left"],
      });
    return events;
  }
  const clicks = (delta: number, positive: number, negative: number) => {
    for (let i = 0; delta && i < notches(delta); i++) {
      const button = delta > 0 ? positive : negative;
      events.push({ type: FAKE.buttonDown, detail: button }, { type: FAKE.buttonUp, detail: button });
    }
  };
  clicks(input.dy, 5, 4);
  clicks(input.dx, 7, 6);
  return events;
}

/**
 * The XTest events of a key message at `place`; a key on the map's Shift column is pressed with Shift unless Shift is
 * held (pure).
 */
export function keyEvents(
  action: "down" | "up",
  place: KeyPlace,
  shift: KeyPlace | undefined,
  shiftHeld: boolean,
): FakeEvent[] {
  if (action === "up") return [{ type: FAKE.keyUp, detail: place.keycode }];
  const down: FakeEvent = { type: FAKE.keyDown, detail: place.keycode };
  if (!place.shift || shiftHeld || !shift) return [down];
  return [{ type: FAKE.keyDown, detail: shift.keycode }, down, { type: FAKE.keyUp, detail: shift.keycode }];
}

export class DesktopLiveInput implements LiveInputCapability {
  private connecting: Promise<XTestConnection | null> | null = null;
  /** Keycodes this connection holds down (key down without its key up yet). */
  private readonly held = new Set<number>();

  constructor(
    private readonly xdotool: (args: string[]) => Promise<void>,
    private readonly display: HostDisplay,
  ) {}

  async send(input: LiveInput): Promise<void> {
    const connection = input.type === "text" ? null : await this.connection();
    const events = connection ? await this.events(connection, input) : null;
    if (connection && events) {
      await connection.send(events);
      liveViewStats().desktop_input_xtest++;
    } else {
      await this.xdotool(liveInputArgs(input));
      liveViewStats().desktop_input_xdotool++;
    }
  }

  private async events(connection: XTestConnection, input: LiveInput): Promise<FakeEvent[] | null> {
    if (input.type === "pointer" || input.type === "wheel") return pointerEvents(input);
    if (input.type !== "key") return null;
    const keysym = keysymOf(input.key);
    const place = keysym === null ? undefined : await connection.place(keysym);
    if (!place) return null;
    const shift = await connection.place(SHIFT_KEYSYM);
    const events = keyEvents(input.action, place, shift, shift !== undefined && this.held.has(shift.keycode));
    if (input.action === "down") this.held.add(place.keycode);
    else this.held.delete(place.keycode);
    return events;
  }

  /** The X connection, opened on first use and again after it closed; null (xdotool) when it cannot be opened. */
  private async connection(): Promise<XTestConnection | null> {
    const current = await this.connecting;
    if (current && !current.closed) return current;
    if (this.connecting && !current) return null; // it failed to open: xdotool from now on
    this.connecting = this.display
      .address()
      .then((address) => XTestConnection.open(address.socket, address.auth))
      .catch((err) => {
        getLogger().warn({ err }, "live input: no XTest connection to the desktop's display; using xdotool");
        return null;
      });
    this.held.clear();
    return this.connecting;
  }

  close() {
    void this.connecting?.then((connection) => connection?.close());
    this.connecting = null;
  }
}
