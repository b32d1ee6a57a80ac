// What a person sends under Take control (the /ws live view's input), as a
// `live_input` event on the session's timeline (docs/watching-sessions.md):
// clicks, wheel turns, keys and typed text, not every pointer move or release.
import type { LiveInput } from "@/lib/computers/driver";

export type LiveInputEventData =
  | { input: "click"; x: number; y: number; button: string; timestamp?: string }
  | { input: "wheel"; x: number; y: number; dx: number; dy: number; timestamp?: string }
  | { input: "key"; key: string; timestamp?: string }
  | { input: "text"; text: string; timestamp?: string };

/** The event for one input message, or null for the ones a person does not read as an action (moves, releases). */
export function liveInputEvent(input: LiveInput): LiveInputEventData | null {
  switch (input.type) {
    case "pointer":
      return input.action === "down"
        ? { input: "click", x: Math.round(input.x), y: Math.round(input.y), button: input.button ?? "left" }
        : null;
    case "wheel":
      return { input: "wheel", x: Math.round(input.x), y: Math.round(input.y), dx: input.dx, dy: input.dy };
    case "key":
      return input.action === "down" ? { input: "key", key: input.key } : null;
    case "text":
      return { input: "text", text: input.text };
  }
}
