// How large a model sees the screen: a model's `maxImageEdge` (MODELS,
// docs/models.md "Image size") bounds the longest edge of every image it is
// sent, so a display larger than that is shown scaled down, the model is told
// the scaled size, and pixel coordinates it answers are scaled back up to the
// caller's display. The 0-1000 space of Lightcone's `computer_use` is the same
// at any size, so only pixel tools (`computer_use_preview`) are mapped.

export interface Size {
  width: number;
  height: number;
}

/** The display as the model sees it; `factor` is model pixels per caller pixel (1: unscaled). */
export interface ImageScale extends Size {
  factor: number;
}

/** The scale for a display under a longest-edge bound (undefined: no bound). Never scales up. */
export function imageScaleFor(display: Size, maxImageEdge: number | undefined): ImageScale {
  const longest = Math.max(display.width, display.height);
  if (!maxImageEdge || longest <= maxImageEdge) return { ...display, factor: 1 };
  const factor = maxImageEdge / longest;
  return {
    width: Math.max(1, Math.round(display.width * factor)),
    height: Math.max(1, Math.round(display.height * factor)),
    factor,
  };
}

/** The scale a request to `model` uses for `display`: what a backend tells the model and maps coordinates back with. */
export function requestImageScale(model: { maxImageEdge?: number }, display: Size): ImageScale {
  return imageScaleFor(display, model.maxImageEdge);
}

/** A point the model answered (in its scaled view) as a pixel of the caller's display, clamped to it. */
export function toCallerPoint(point: { x: number; y: number }, scale: ImageScale, display: Size) {
  const back = (v: number, size: number, seen: number) =>
    Math.min(size - 1, Math.max(0, Math.round((v * size) / seen)));
  return { x: back(point.x, display.width, scale.width), y: back(point.y, display.height, scale.height) };
}
