// What the live viewer sends over /ws (docs/contract.md "Streams"), from DOM
// events, as pure functions: pointer positions on the scaled canvas mapped
// back to frame pixels, mouse buttons by name, and keys. Unit tested.

// Type-only: the server's own message type, erased at compile time.
import type { LiveInput } from "@/lib/computers/driver";

export type LiveInputMessage = LiveInput;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A point on the canvas as shown (CSS pixels of `box`) → the frame's own pixels, inside the frame. */
export function toFramePoint(clientX: number, clientY: number, box: Box, frame: { width: number; height: number }) {
  const clamp = (v: number, max: number) => Math.min(Math.max(0, Math.round(v)), Math.max(0, max - 1));
  if (box.width <= 0 || box.height <= 0) return { x: 0, y: 0 };
  return {
    x: clamp(((clientX - box.left) * frame.width) / box.width, frame.width),
    y: clamp(((clientY - box.top) * frame.height) / box.height, frame.height),
  };
}

const BUTTONS = ["left", "middle", "right"] as const;

/** MouseEvent.button (0 main, 1 middle, 2 secondary) → the message's name; other buttons are not sent. */
export function buttonName(button: number): "left" | "middle" | "right" | null {
  return BUTTONS[button] ?? null;
}

// Keys the browser reports that name no key the session could press.
const UNSENDABLE = new Set(["Dead", "Unidentified", "Process", "Compose"]);

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/**
 * One key event → the message to send, or null. A printable character typed
 * without Ctrl/Alt/Meta goes as `text` on key down (the layout and Shift are
 * already applied, so "A" and "é" arrive as typed); everything else (named
 * keys, modifiers, shortcuts such as Ctrl+c) as key down/up by its W3C name,
 * which the server's canonicalKey accepts.
 */
export function keyMessage(event: KeyLike, action: "down" | "up"): LiveInputMessage | null {
  const { key } = event;
  if (!key || UNSENDABLE.has(key)) return null;
  const printable = [...key].length === 1;
  if (printable && !event.ctrlKey && !event.altKey && !event.metaKey) {
    return action === "down" ? { type: "text", text: key } : null;
  }
  if (printable) return { type: "key", action, key: key.toLowerCase() };
  return { type: "key", action, key };
}

/** Wheel deltas in pixels whatever the event's deltaMode (lines ≈ 40 px, pages ≈ the frame height). */
export function wheelPixels(delta: number, deltaMode: number, pageHeight: number): number {
  const scale = deltaMode === 1 ? 40 : deltaMode === 2 ? pageHeight : 1;
  return Math.round(delta * scale);
}
