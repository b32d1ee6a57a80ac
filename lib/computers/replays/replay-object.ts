// A replay as the API answers it (docs/replays.md "The replay object"): Kernel's
// fields (replay_id, started_at, finished_at, status, replay_view_url) and what a
// player needs to show it before downloading it.
import type { ReplayRow } from "@/lib/computers/replays/replay-store";

export interface ReplayObject {
  replay_id: string;
  session_id: string;
  task_id: string | null;
  status: string;
  reason?: string;
  started_at: string;
  finished_at: string | null;
  duration_seconds: number | null;
  framerate: number;
  max_duration_seconds: number | null;
  size_bytes: number;
  width: number | null;
  height: number | null;
  /** Where the MP4 is downloaded (GET, the API key as for every /computers request). */
  replay_view_url: string;
}

export function replayViewUrl(origin: string, sessionId: string, replayId: string): string {
  return `${origin}/computers/${sessionId}/replays/${replayId}`;
}

export function toReplayObject(row: ReplayRow, origin: string): ReplayObject {
  return {
    replay_id: row.id,
    session_id: row.sessionId,
    task_id: row.taskId,
    status: row.status,
    ...(row.reason ? { reason: row.reason } : {}),
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
    duration_seconds: row.durationSeconds === null ? null : Math.round(row.durationSeconds * 1000) / 1000,
    framerate: row.framerate,
    max_duration_seconds: row.maxDurationSeconds,
    size_bytes: Number(row.sizeBytes),
    width: row.width,
    height: row.height,
    replay_view_url: replayViewUrl(origin, row.sessionId, row.id),
  };
}
