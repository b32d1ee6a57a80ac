// Live-view input for a desktop session (GET /computers/{id}/ws) → xdotool
// inside the desktop, with zero delays (xdotool's defaults add ~100 ms per
// click). Keys go through the one normaliser (toKeysym → canonicalKey).
// Input runs beside the action queue, like a person at the keyboard would.
import type { LiveInput, LiveInputCapability } from "@/lib/computers/driver";
import { PIXELS_PER_NOTCH, toKeysym } from "@/lib/computers/desktop/xdotool";

const BUTTONS = { left: "1", middle: "2", right: "3" } as const;
const MAX_NOTCHES = 50;

const notches = (delta: number) => Math.min(MAX_NOTCHES, Math.max(1, Math.round(Math.abs(delta) / PIXELS_PER_NOTCH)));

/** The xdotool arguments of one live input message (pure). */
export function liveInputArgs(input: LiveInput): string[] {
  switch (input.type) {
    case "pointer": {
      const move = ["mousemove", String(Math.round(input.x)), String(Math.round(input.y))];
      if (input.action === "move") return move;
      return [...move, input.action === "down" ? "mousedown" : "mouseup", BUTTONS[input.button ?? "left"]];
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

export class DesktopLiveInput implements LiveInputCapability {
  constructor(private readonly xdotool: (args: string[]) => Promise<void>) {}

  async send(input: LiveInput): Promise<void> {
    await this.xdotool(liveInputArgs(input));
  }
}
