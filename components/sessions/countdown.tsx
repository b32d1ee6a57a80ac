"use client";

/** Seconds as m:ss, or h:mm:ss from an hour up. */
export function formatRemaining(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export type Urgency = "calm" | "soon" | "now";

/** Amber under 30 s, red under 10 s: time to press Keep alive. */
export function countdownUrgency(seconds: number): Urgency {
  return seconds < 10 ? "now" : seconds < 30 ? "soon" : "calm";
}

const URGENCY_TONES: Record<Urgency, string> = {
  calm: "text-slate-800",
  soon: "bg-amber-100 text-amber-900",
  now: "bg-red-100 text-red-800",
};

/**
 * Time left until `deadline` on the server's clock: `now` is this browser's
 * clock (ticking) and `skewMs` how far the server's is ahead. Tabular figures
 * and a fixed width, so ticking never moves the layout.
 */
export function Countdown({
  label,
  deadline,
  now,
  skewMs,
  testId,
}: {
  label: string;
  deadline: string;
  now: number;
  skewMs: number;
  testId: string;
}) {
  const seconds = Math.max(0, Math.floor((Date.parse(deadline) - (now + skewMs)) / 1000));
  const urgency = countdownUrgency(seconds);
  return (
    <span className="inline-flex items-baseline gap-1 whitespace-nowrap text-xs text-slate-500">
      {label}
      <span
        className={
          `inline-block min-w-[7ch] rounded px-1 font-mono text-sm font-medium ` +
          `tabular-nums ${URGENCY_TONES[urgency]}`
        }
        data-testid={testId}
        data-seconds={seconds}
        data-urgency={urgency}
        title={new Date(deadline).toLocaleString()}
      >
        {formatRemaining(seconds)}
      </span>
    </span>
  );
}
