"use client";

import { useEffect, useState, type RefObject } from "react";

/**
 * How the session's screen is drawn: scaled to the column (fit), one frame pixel per device pixel with scrolling
 * (actual), or the whole window (fullscreen).
 */
export type ScreenMode = "fit" | "actual";

export interface Size {
  width: number;
  height: number;
}

/**
 * The canvas's CSS size for a frame in a stage: `fit` fills the stage's width
 * (and, when `maxHeight` is given, stays within it, keeping the aspect); `actual`
 * draws one frame pixel per device pixel. Sized exactly (no letterbox inside the
 * canvas), so pointer coordinates map straight back to frame pixels.
 */
export function canvasSize(
  mode: ScreenMode,
  frame: Size,
  stage: Size,
  devicePixelRatio: number,
  maxHeight?: number,
): Size {
  if (mode === "actual") return { width: frame.width / devicePixelRatio, height: frame.height / devicePixelRatio };
  if (stage.width <= 0 || frame.width <= 0 || frame.height <= 0) return { width: 0, height: 0 };
  let width = stage.width;
  if (maxHeight !== undefined && maxHeight > 0) width = Math.min(width, (maxHeight * frame.width) / frame.height);
  return { width, height: (width * frame.height) / frame.width };
}

/** The element's content box, kept current with a ResizeObserver. */
export function useElementSize(ref: RefObject<HTMLElement | null>): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      const box = entry.contentRect;
      setSize((old) =>
        old.width === box.width && old.height === box.height ? old : { width: box.width, height: box.height },
      );
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/** Whether `ref` is the document's fullscreen element, and a toggle; a phone turns to landscape where it may. */
export function useFullscreen(ref: RefObject<HTMLElement | null>) {
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const onChange = () =>
      setFullscreen(document.fullscreenElement !== null && document.fullscreenElement === ref.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, [ref]);
  async function toggle() {
    if (document.fullscreenElement) return void (await document.exitFullscreen().catch(() => {}));
    await ref.current?.requestFullscreen({ navigationUI: "hide" }).catch(() => {});
    // Only some phones allow the lock (and only in fullscreen); elsewhere the screen just fills the window.
    const orientation = screen.orientation as ScreenOrientation & { lock?: (o: string) => Promise<void> };
    if (window.matchMedia("(pointer: coarse)").matches) await orientation.lock?.("landscape").catch(() => {});
  }
  return { fullscreen, toggle };
}
