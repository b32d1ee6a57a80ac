"use client";

import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { buttonName, keyMessage, toFramePoint, wheelPixels } from "@/components/session/live-input";
import { useLiveView, type ConnectionState } from "@/components/session/use-live-view";
import { canvasSize, useElementSize, useFullscreen, type ScreenMode } from "@/components/session/screen-fit";
import { Button } from "@/components/ui/button";
import { ToggleGroup } from "@/components/ui/toggle-group";

/** The status line beside the badge: two lines high whatever it says (watching, or in control). */
const NOTE = "flex min-h-9 min-w-0 flex-1 items-center px-2 py-0.5 text-xs leading-4";

const MODES: { value: ScreenMode; label: string }[] = [
  { value: "fit", label: "Fit" },
  { value: "actual", label: "1:1" },
];

const STATE_LABELS: Record<ConnectionState, { text: string; tone: string }> = {
  connecting: { text: "Connecting…", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
  live: { text: "Live", tone: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  reconnecting: { text: "Reconnecting…", tone: "bg-amber-50 text-amber-800 ring-amber-200" },
  ended: { text: "Ended", tone: "bg-slate-100 text-slate-600 ring-slate-200" },
};

function ConnectionBadge({ state }: { state: ConnectionState }) {
  const { text, tone } = STATE_LABELS[state];
  return (
    <span
      role="status"
      data-testid="viewer-state"
      data-state={state}
      className={[
        "inline-flex items-center gap-1.5 rounded-full px-2 py-0.5",
        `text-xs font-medium ring-1 ring-inset ${tone}`,
      ].join(" ")}
    >
      {state === "live" && <span aria-hidden className="size-1.5 rounded-full bg-current" />}
      {text}
    </span>
  );
}

/**
 * The session's screen over /ws, as wide as its column (Fit, never taller than
 * the window), 1:1 with scrolling, or fullscreen (docs/watching-sessions.md). Read-only until
 * "Take control"; then pointer, wheel and keys on the canvas go to the session
 * (coordinates mapped back to frame pixels) until "Release" or Esc.
 */
export function LiveViewer({
  wsUrl,
  viewport,
  onEnded,
}: {
  wsUrl: string | undefined;
  viewport: { width: number; height: number };
  onEnded: (reason: string) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { state, frameSize, send } = useLiveView({ url: wsUrl, canvas, onEnded });
  const [controlling, setControlling] = useState(false);
  const frame = frameSize ?? viewport;
  const control = controlling && state === "live";
  const wrapper = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const stageSize = useElementSize(stage);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(wrapper);
  const [mode, setMode] = useState<ScreenMode>("fit");
  const [windowHeight, setWindowHeight] = useState(0);
  const [dpr, setDpr] = useState(1);
  useEffect(() => {
    const read = () => {
      setWindowHeight(window.innerHeight);
      setDpr(window.devicePixelRatio || 1);
    };
    read();
    window.addEventListener("resize", read);
    return () => window.removeEventListener("resize", read);
  }, []);
  // Fit never draws taller than the window (minus a margin), so the whole screen can be in view at once.
  const drawn = canvasSize(
    fullscreen ? "fit" : mode,
    frame,
    stageSize,
    dpr,
    fullscreen ? stageSize.height : windowHeight - 16,
  );

  // The wheel listener must be non-passive to keep the page from scrolling while in control.
  useEffect(() => {
    const target = canvas.current;
    if (!target || !control) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const { x, y } = toFramePoint(event.clientX, event.clientY, target.getBoundingClientRect(), frame);
      send({
        type: "wheel",
        x,
        y,
        dx: wheelPixels(event.deltaX, event.deltaMode, frame.height),
        dy: wheelPixels(event.deltaY, event.deltaMode, frame.height),
      });
    };
    target.addEventListener("wheel", onWheel, { passive: false });
    return () => target.removeEventListener("wheel", onWheel);
  }, [control, frame, send]);

  function takeControl() {
    setControlling(true);
    canvas.current?.focus();
  }

  // Moves are coalesced to one per animation frame (the newest position); a press first sends any pending move.
  const pendingMove = useRef<{ x: number; y: number } | null>(null);
  const moveFrame = useRef<number | null>(null);
  function flushMove() {
    if (moveFrame.current !== null) cancelAnimationFrame(moveFrame.current);
    moveFrame.current = null;
    if (pendingMove.current) send({ type: "pointer", action: "move", ...pendingMove.current });
    pendingMove.current = null;
  }
  useEffect(
    () => () => {
      if (moveFrame.current !== null) cancelAnimationFrame(moveFrame.current);
    },
    [],
  );

  function pointer(action: "move" | "down" | "up", event: PointerEvent<HTMLCanvasElement>) {
    if (!control) return;
    const { x, y } = toFramePoint(event.clientX, event.clientY, event.currentTarget.getBoundingClientRect(), frame);
    if (action === "move") {
      pendingMove.current = { x, y };
      moveFrame.current ??= requestAnimationFrame(flushMove);
      return;
    }
    const button = buttonName(event.button);
    if (!button) return;
    event.preventDefault();
    flushMove();
    if (action === "down") event.currentTarget.focus();
    send({ type: "pointer", action, x, y, button });
  }

  function key(action: "down" | "up", event: KeyboardEvent<HTMLCanvasElement>) {
    if (!control) return;
    if (event.key === "Escape") {
      if (action === "down") setControlling(false);
      event.preventDefault();
      return;
    }
    // Keys go to the session, not the page (no Tab out of the canvas, no browser shortcuts).
    event.preventDefault();
    const message = keyMessage(event, action);
    if (message) send(message);
  }

  return (
    <div
      ref={wrapper}
      data-testid="live-viewer"
      className={fullscreen ? "flex h-full w-full flex-col gap-2 bg-slate-950 p-2" : "space-y-2"}
    >
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex min-w-0 flex-[1_1_18rem] items-center gap-2">
          <ConnectionBadge state={state} />
          {/* The whole sentence, wrapped rather than cut (a phone showed "You a…"), in a box of two
              lines either way, so taking control never pushes the screen down. */}
          {control ? (
            <p
              role="status"
              data-testid="control-banner"
              className={`${NOTE} rounded bg-amber-100 font-medium text-amber-900`}
            >
              You are in control: your input goes to the session. Esc releases it.
            </p>
          ) : (
            <p data-testid="viewer-note" className={`${NOTE} ${fullscreen ? "text-slate-300" : "text-slate-500"}`}>
              Watching (read-only). Take control to click, scroll and type.
            </p>
          )}
        </div>
        <ToggleGroup label="Screen size" options={MODES} value={mode} onChange={setMode} />
        <Button variant="secondary" onClick={() => void toggleFullscreen()} aria-pressed={fullscreen}>
          {fullscreen ? "Exit fullscreen" : "Fullscreen"}
        </Button>
        {control ? (
          <Button variant="secondary" onClick={() => setControlling(false)}>
            Release
          </Button>
        ) : (
          <Button onClick={takeControl} disabled={state !== "live"}>
            Take control
          </Button>
        )}
      </div>
      <div
        ref={stage}
        data-testid="screen-stage"
        className={
          fullscreen
            ? "flex min-h-0 flex-1 items-center justify-center overflow-auto"
            : mode === "actual"
              ? "max-h-[80dvh] overflow-auto"
              : ""
        }
      >
        <canvas
          ref={canvas}
          width={viewport.width}
          height={viewport.height}
          tabIndex={0}
          aria-label={control ? "Session screen (you are in control)" : "Session screen (read-only)"}
          data-testid="live-canvas"
          data-controlling={control ? "true" : "false"}
          className={
            `block max-w-none rounded-md bg-slate-900 ` +
            `focus:outline-none ${control ? "cursor-crosshair ring-4 ring-amber-400" : "cursor-default ring-1 ring-slate-200"}`
          }
          style={{
            width: drawn.width || "100%",
            height: drawn.height || "auto",
            touchAction: control ? "none" : "auto",
          }}
          onPointerMove={(e) => pointer("move", e)}
          onPointerDown={(e) => pointer("down", e)}
          onPointerUp={(e) => pointer("up", e)}
          onContextMenu={(e) => control && e.preventDefault()}
          onKeyDown={(e) => key("down", e)}
          onKeyUp={(e) => key("up", e)}
        />
      </div>
    </div>
  );
}
