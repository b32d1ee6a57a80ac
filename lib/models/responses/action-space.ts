// The coordinate space of a computer tool's calls. Lightcone's `computer_use`
// answers in a 0-1000 space on both axes, which its clients rescale by
// display/1000 (examples/_cua.py in the public SDK repository); OpenAI's
// `computer_use_preview` answers in pixels of display_width x display_height.
// Used where Cabin itself builds computer_call items (the model's prompt, and
// the clamp of each call's coordinates); see docs/computer-use.md.
import type { ComputerToolSpec } from "@/lib/models/responses/schema";

/** The largest coordinate of the normalized space: 1000 is the right or bottom edge. */
export const NORMALIZED_MAX = 1000;

export interface ActionSpace {
  /** Coordinates run from 0 to these, inclusive. */
  maxX: number;
  maxY: number;
  /** True for the 0-1000 space, false for pixels. */
  normalized: boolean;
  /** The screen the tool describes, in pixels. */
  width: number;
  height: number;
  /**
   * Set when the model sees the screen scaled (a model's maxImageEdge, model-view.ts): a point it answered, in the
   * caller's pixels.
   */
  toCaller?: (point: { x: number; y: number }) => { x: number; y: number };
}

export function actionSpaceOf(spec: Pick<ComputerToolSpec, "type" | "display_width" | "display_height">): ActionSpace {
  const normalized = spec.type === "computer_use";
  return {
    maxX: normalized ? NORMALIZED_MAX : spec.display_width - 1,
    maxY: normalized ? NORMALIZED_MAX : spec.display_height - 1,
    normalized,
    width: spec.display_width,
    height: spec.display_height,
  };
}

/** What the model is told about the coordinates (kept short: the local model's context is small). */
export function describeActionSpace(space: ActionSpace, environment: string): string {
  const screen = `Act on a ${environment} screen of ${space.width}x${space.height} pixels.`;
  return space.normalized
    ? `${screen} x and y are 0-${NORMALIZED_MAX} on both axes: 0,0 is the top ` +
        `left, ${NORMALIZED_MAX},${NORMALIZED_MAX} the bottom right.`
    : `${screen} x and y are pixels: x 0-${space.maxX}, y 0-${space.maxY}.`;
}
