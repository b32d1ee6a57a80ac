"use client";

/** Where an action landed, in screen pixels: one point, or a path (drag). */
export interface ActionMark {
  points: { x: number; y: number }[];
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The point or path of an action already in screen pixels (a step's screen_action); null when it has none. */
export function markOf(action: Record<string, unknown> | null): ActionMark | null {
  if (!action) return null;
  if (Array.isArray(action.path)) {
    const points = action.path
      .map((p) => ({ x: num((p as { x?: unknown }).x), y: num((p as { y?: unknown }).y) }))
      .filter((p): p is { x: number; y: number } => p.x !== undefined && p.y !== undefined);
    if (points.length > 0) return { points };
  }
  const start = { x: num(action.start_x) ?? num(action.x), y: num(action.start_y) ?? num(action.y) };
  const end = { x: num(action.end_x), y: num(action.end_y) };
  if (start.x === undefined || start.y === undefined) return null;
  const points = [{ x: start.x, y: start.y }];
  if (end.x !== undefined && end.y !== undefined) points.push({ x: end.x, y: end.y });
  return { points };
}

/**
 * A step's screenshot with the action's point (a ring) or path (a line) drawn where it
 * landed; the drawing is in the screen's own pixels (viewBox), so it scales with the image.
 */
export function StepShot(props: {
  url: string | null;
  screen: { width: number; height: number };
  mark: ActionMark | null;
  label: string;
}) {
  const { screen, mark } = props;
  const ring = Math.max(screen.width, screen.height) / 60;
  if (!props.url)
    return (
      <div
        aria-hidden
        data-testid="no-screenshot"
        className={
          "flex aspect-video w-full items-center justify-center rounded border border-dashed border-slate-200 " +
          "text-xs text-slate-500 sm:w-60"
        }
      >
        no screenshot
      </div>
    );
  return (
    <a
      href={props.url}
      target="_blank"
      rel="noreferrer"
      className="relative block w-full shrink-0 sm:w-60"
      aria-label={props.label}
    >
      {/* eslint-disable-next-line @next/next/no-img-element -- a capability URL of this server, not an optimizable asset */}
      <img
        src={props.url}
        alt=""
        width={240}
        height={Math.round((240 * screen.height) / screen.width)}
        loading="lazy"
        className="block h-auto w-full rounded border border-slate-200"
      />
      {mark && (
        <svg
          aria-hidden
          data-testid="step-mark"
          viewBox={`0 0 ${screen.width} ${screen.height}`}
          preserveAspectRatio="none"
          className="pointer-events-none absolute inset-0 h-full w-full"
        >
          {mark.points.length > 1 && (
            <polyline
              points={mark.points.map((p) => `${p.x},${p.y}`).join(" ")}
              fill="none"
              stroke="#e11d48"
              strokeWidth={ring / 2.5}
              strokeLinecap="round"
            />
          )}
          <circle
            cx={mark.points[0]!.x}
            cy={mark.points[0]!.y}
            r={ring}
            fill="rgba(225,29,72,0.25)"
            stroke="#e11d48"
            strokeWidth={ring / 3}
          />
          {mark.points.length > 1 && (
            <circle cx={mark.points.at(-1)!.x} cy={mark.points.at(-1)!.y} r={ring / 2} fill="#e11d48" />
          )}
        </svg>
      )}
    </a>
  );
}
