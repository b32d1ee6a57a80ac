"use client";

import { useState } from "react";
import { ReplayNotReady, ReplayPlayer, type ReplayMarker } from "@/components/session/replay-player";
import { useRecording, useSessionReplays, type DashboardReplay } from "@/components/session/use-replays";
import type { TimelineEntry } from "@/components/session-tools/timeline-model";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";

/** The timeline's entries as moments of the video: actions, navigations, tabs, commands, a person's input, the end. */
export function timelineMarkers(entries: TimelineEntry[]): ReplayMarker[] {
  const markers: ReplayMarker[] = [];
  for (const e of entries) {
    if (e.kind === "action")
      markers.push({
        key: e.key,
        at: e.at,
        label: e.status === "error" ? `${e.action} (failed${e.errorMessage ? `: ${e.errorMessage}` : ""})` : e.action,
        tone: e.status === "error" ? "error" : "plain",
      });
    else if (e.kind === "exec") markers.push({ key: e.key, at: e.at, label: `exec ${e.command ?? e.requestId}` });
    else if (e.kind === "input") markers.push({ key: e.key, at: e.at, label: `${e.what} ${e.text}`.trim() });
    else if (e.kind === "ended") markers.push({ key: e.key, at: e.at, label: `ended: ${e.reason}` });
  }
  return markers;
}

function replayLabel(r: DashboardReplay): string {
  const when = new Date(r.started_at).toLocaleTimeString();
  const length = r.duration_seconds !== null ? ` · ${Math.round(r.duration_seconds)} s` : "";
  return `${when}${length} · ${r.status}`;
}

function EmptyReplays({ live }: { live: boolean }) {
  return (
    <p className="text-sm text-slate-600" data-testid="replays-empty">
      {live
        ? "Not recorded yet. Record films the screen from now on; stop it to watch the video here, with the " +
          "session's events on its timeline."
        : "This session was not recorded (record: true when creating a session records its whole life)."}
    </p>
  );
}

/**
 * The session page's Replays: a player for the session's recordings (the newest by default)
 * with the timeline's events as markers that seek the video, and Record / Stop recording on a
 * live session.
 */
export function ReplaysPanel(props: { sessionId: string; live: boolean; entries: TimelineEntry[] }) {
  const { sessionId, live } = props;
  const replays = useSessionReplays(sessionId, live);
  const { start, stop } = useRecording(sessionId);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = replays.data ?? [];
  const recording = list.find((r) => r.status === "recording");
  const shown =
    list.find((r) => r.replay_id === chosen) ?? list.findLast((r) => r.status !== "recording") ?? list.at(-1);
  const problem = start.error ?? stop.error;
  const actions =
    live && replays.data ? (
      recording ? (
        <Button
          variant="danger"
          disabled={stop.isPending}
          onClick={() => stop.mutate(recording.replay_id)}
          data-testid="replay-stop"
        >
          {stop.isPending ? "Stopping…" : "Stop recording"}
        </Button>
      ) : (
        <Button
          variant="secondary"
          disabled={start.isPending}
          onClick={() => start.mutate()}
          data-testid="replay-record"
        >
          <span aria-hidden className="h-2.5 w-2.5 rounded-full bg-red-600" />
          {start.isPending ? "Starting…" : "Record"}
        </Button>
      )
    ) : null;
  return (
    <Card title="Replays" actions={actions}>
      <div className="space-y-3" data-testid="replays-panel">
        {problem && (
          <p role="alert" className="text-sm text-red-700">
            {problem.message}
          </p>
        )}
        {replays.isPending ? (
          <p role="status" className="text-sm text-slate-500" data-testid="replays-loading">
            Loading replays…
          </p>
        ) : replays.isError && !replays.data ? (
          <ErrorState
            what="The replays could not be loaded"
            detail={replays.error.message}
            onRetry={() => void replays.refetch()}
          />
        ) : !shown ? (
          <EmptyReplays live={live} />
        ) : (
          <>
            {list.length > 1 && (
              <label className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                Recording
                <select
                  value={shown.replay_id}
                  onChange={(e) => setChosen(e.target.value)}
                  className="min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs"
                >
                  {list.map((r) => (
                    <option key={r.replay_id} value={r.replay_id}>
                      {replayLabel(r)}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {shown.status === "ready" ? (
              <ReplayPlayer key={shown.replay_id} replay={shown} markers={timelineMarkers(props.entries)} />
            ) : (
              <ReplayNotReady replay={shown} />
            )}
            {recording && shown !== recording && <ReplayNotReady replay={recording} />}
          </>
        )}
      </div>
    </Card>
  );
}
