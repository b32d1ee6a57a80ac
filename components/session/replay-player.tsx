"use client";

import { useRef, useState } from "react";
import type { DashboardReplay } from "@/components/session/use-replays";

/** Something that happened during a recording: where it sits on the video, and what it was. */
export interface ReplayMarker {
  key: string;
  /** When it happened (ms since the epoch); its place on the video is this − the replay's started_at. */
  at: number;
  label: string;
  tone?: "error" | "plain";
}

/** m:ss of a video time in seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The markers that fall inside the video, with their offset in seconds, in time order. */
export function placeMarkers(replay: Pick<DashboardReplay, "started_at">, duration: number, markers: ReplayMarker[]) {
  const start = Date.parse(replay.started_at);
  return markers
    .map((m) => ({ ...m, offset: (m.at - start) / 1000 }))
    .filter((m) => m.offset >= 0 && m.offset <= duration + 0.5)
    .map((m) => ({ ...m, offset: Math.min(m.offset, duration) }))
    .sort((a, b) => a.offset - b.offset);
}

/**
 * A ready replay: the video, and its markers on a bar under it (each a button that seeks
 * the video to its moment), then listed with their times (keyboard and small screens).
 */
export function ReplayPlayer({ replay, markers }: { replay: DashboardReplay; markers: ReplayMarker[] }) {
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  // The video's own duration once known (the row's may be rounded); the row's until then.
  const [duration, setDuration] = useState(replay.duration_seconds ?? 0);
  const placed = duration > 0 ? placeMarkers(replay, duration, markers) : [];
  const seek = (offset: number) => {
    const element = video.current;
    if (!element) return;
    element.currentTime = offset;
    element.focus();
  };
  return (
    <div className="space-y-2" data-testid="replay-player">
      {/* biome-ignore lint/a11y/useMediaCaption: a screen recording has no speech to caption */}
      <video
        ref={video}
        src={replay.replay_view_url}
        controls
        preload="metadata"
        playsInline
        data-testid="replay-video"
        aria-label={`Replay ${replay.replay_id}`}
        width={replay.width ?? 1280}
        height={replay.height ?? 720}
        onLoadedMetadata={(e) => {
          const d = e.currentTarget.duration;
          if (Number.isFinite(d) && d > 0) setDuration(d);
        }}
        onError={() => setFailed(true)}
        className="block h-auto w-full rounded-md border border-slate-200 bg-slate-900"
      />
      {failed && (
        <p role="alert" className="text-sm text-red-700">
          The video could not be played. <a href={replay.replay_view_url}>Download it</a> instead.
        </p>
      )}
      {placed.length > 0 && (
        <>
          <div className="relative h-4 rounded bg-slate-100" aria-hidden data-testid="replay-marker-bar">
            {placed.map((m) => (
              <span
                key={m.key}
                title={`${clock(m.offset)} ${m.label}`}
                className={
                  `absolute top-0.5 h-3 w-1 -translate-x-1/2 ` +
                  `rounded-sm ${m.tone === "error" ? "bg-red-500" : "bg-brand-600"}`
                }
                style={{ left: `${(m.offset / duration) * 100}%` }}
              />
            ))}
          </div>
          <ol className="max-h-48 space-y-1 overflow-y-auto text-xs" aria-label="Moments in the replay">
            {placed.map((m) => (
              <li key={m.key}>
                <button
                  type="button"
                  data-testid="replay-marker"
                  data-offset={m.offset.toFixed(3)}
                  onClick={() => seek(m.offset)}
                  className={
                    "flex w-full min-w-0 items-baseline gap-2 rounded px-1.5 py-1 text-left hover:bg-slate-100 " +
                    "focus-visible:outline-2 focus-visible:outline-brand-500"
                  }
                >
                  <span className="shrink-0 font-mono text-slate-500">{clock(m.offset)}</span>
                  <span className={`min-w-0 truncate ${m.tone === "error" ? "text-red-700" : "text-slate-800"}`}>
                    {m.label}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

/** A replay that is not ready to play: what is happening to it, in words. */
export function ReplayNotReady({ replay }: { replay: DashboardReplay }) {
  if (replay.status === "failed")
    return (
      <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="replay-failed">
        This recording failed{replay.reason ? `: ${replay.reason}` : ""}.
      </p>
    );
  const recording = replay.status === "recording";
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700"
      data-testid={recording ? "replay-recording" : "replay-processing"}
    >
      <span
        aria-hidden
        data-testid="replay-state-dot"
        className={`size-2 shrink-0 rounded-full ${recording ? "animate-pulse bg-red-600" : "bg-amber-500"}`}
      />
      {recording
        ? `Recording since ${new Date(replay.started_at).toLocaleTimeString()}: the video plays here once the ` +
          `recording stops.`
        : "Finishing the video…"}
    </p>
  );
}
