// The replays API (docs/replays.md), in Kernel's replay shape, under the session:
// POST/GET /computers/{id}/replays, POST …/{replay_id}/stop, GET and DELETE
// …/{replay_id}. Each is scoped to the caller's organization (a foreign id is 404).
// Starting needs the session live and served here; listing, reading and deleting
// work after the session ended, on the node that holds the file.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { storedBytes } from "@/lib/computers/files/organization-storage";
import { ffmpegPath } from "@/lib/computers/desktop/live-tools";
import { ScreencastHub } from "@/lib/computers/live/hub";
import { toReplayObject, type ReplayObject } from "@/lib/computers/replays/replay-object";
import { ensureReplaysDir, replayFilePath, replayFileResponse } from "@/lib/computers/replays/replay-files";
import { Recorder, recorders, recordingOf } from "@/lib/computers/replays/replay-recorder";
import {
  deleteReplayRow,
  findReplay,
  insertReplay,
  listSessionReplays,
  newReplayId,
  type ReplayRow,
} from "@/lib/computers/replays/replay-store";
import { findOwnedComputer, reachSession, type Reached } from "@/lib/computers/sessions/access";
import { getSessionManager } from "@/lib/computers/registry";
import type { ComputerRow } from "@/lib/computers/sessions/store";
import { getEnv } from "@/lib/env";
import { unlink } from "node:fs/promises";

export interface ReplayCaller {
  organizationId: string;
}

export const DEFAULT_FRAMERATE = 10;

export const startReplaySchema = z.strictObject({
  framerate: z
    .number({ error: "framerate must be a number of frames per second" })
    .int("framerate must be an integer")
    .min(1, "framerate must be at least 1")
    .max(30, "framerate must be at most 30")
    .optional(),
  max_duration_seconds: z
    .number({ error: "max_duration_seconds must be a number" })
    .int("max_duration_seconds must be an integer")
    .min(1, "max_duration_seconds must be at least 1")
    .max(7 * 86_400, "max_duration_seconds must be at most 604800")
    .nullish(),
});

export interface ReplayStart {
  framerate: number;
  maxDurationSeconds: number | null;
  /** The agent task that records its session (tasks record by default). */
  taskId?: string | null;
}

/** Refused before anything starts: the organization's stored bytes already fill ORG_STORAGE_MAX_BYTES. */
export async function assertRoomForReplay(organizationId: string): Promise<void> {
  const max = getEnv().ORG_STORAGE_MAX_BYTES;
  if (max === 0) return;
  const used = await storedBytes(organizationId);
  if (used < max) return;
  throw new AppError(
    "payload_too_large",
    `Your organization's storage is full: ${used} bytes stored of ORG_STORAGE_MAX_BYTES ${max}; a replay cannot ` +
      `start. Delete replays (DELETE /computers/{id}/replays/{replay_id}) or files, or wait for old ones to ` +
      `expire.`,
    { detail: "storage_quota_exceeded" },
  );
}

function replayNotFound(id: string, replayId: string) {
  return new AppError("not_found", `Replay '${replayId}' not found in session '${id}'`, { detail: "replay_not_found" });
}

/** Starts recording a session this process runs (reached already: live, owned, served here). */
export async function recordSession(reached: Pick<Reached, "row" | "live" | "handle">, start: ReplayStart) {
  const { row, live, handle } = reached;
  const running = recordingOf(row.id);
  if (running) {
    throw new AppError(
      "conflict",
      `Session '${row.id}' is already recording replay '${running.row.id}'; stop it first (POST ` +
        `/computers/${row.id}/replays/${running.row.id}/stop)`,
      { detail: "replay_already_recording" },
    );
  }
  if (!handle.screencast)
    throw new AppError("not_implemented", `${handle.kind} sessions have no screen capture on this server`);
  const ffmpeg = ffmpegPath();
  if (!ffmpeg) {
    throw new AppError("unavailable", "Replays need ffmpeg on the server (npm start installs it with apt-get)", {
      detail: "ffmpeg_missing",
    });
  }
  await assertRoomForReplay(row.organizationId);
  await ensureReplaysDir();
  const id = newReplayId();
  const replay = await insertReplay({
    id,
    organizationId: row.organizationId,
    sessionId: row.id,
    nodeId: row.hostId,
    taskId: start.taskId ?? null,
    framerate: start.framerate,
    maxDurationSeconds: start.maxDurationSeconds,
    fileName: `${id}.mp4`,
    startedAt: new Date(),
  });
  const recorder = new Recorder(replay, replayFilePath(replay.fileName), ffmpeg);
  recorders().set(id, recorder);
  try {
    live.liveView ??= new ScreencastHub(handle.screencast);
    recorder.attach(live.liveView);
  } catch (err) {
    await recorder.abort();
    await deleteReplayRow(id);
    throw new AppError("conflict", `Session '${row.id}' ended before its recording started`, {
      detail: "session_terminated",
      cause: err,
    });
  }
  return replay;
}

/**
 * `record: true` on POST /computers: the new session's whole life as one replay, stopped by its end.
 * A recording that cannot start ends the session (a create answers with all it was asked for, or nothing).
 */
export async function recordNewSession(row: ComputerRow): Promise<string> {
  try {
    return await recordRunningSession(row, null);
  } catch (err) {
    await getSessionManager()
      .terminate(row.id, "provision_failed")
      .catch(() => {});
    throw err;
  }
}

async function recordRunningSession(row: ComputerRow, taskId: string | null): Promise<string> {
  const live = getSessionManager().get(row.id);
  const handle = live ? await live.started.catch(() => null) : null;
  if (!live || !handle) throw new AppError("conflict", `Session '${row.id}' ended as it started`);
  const start = { framerate: DEFAULT_FRAMERATE, maxDurationSeconds: null, taskId };
  return (await recordSession({ row, live, handle }, start)).id;
}

/**
 * An agent task's recording (tasks record by default, docs/agent-tasks.md): its session's running
 * replay when one records already (a task on an existing session), else a new one named after the task.
 */
export async function recordForTask(input: {
  caller: ReplayCaller;
  sessionId: string;
  taskId: string;
}): Promise<{ replayId: string; started: boolean }> {
  const running = recordingOf(input.sessionId);
  if (running) return { replayId: running.row.id, started: false };
  const row = await findOwnedComputer(input.caller, input.sessionId);
  return { replayId: await recordRunningSession(row, input.taskId), started: true };
}

/** POST /computers/{id}/replays. */
export async function startReplay(input: {
  caller: ReplayCaller;
  id: string;
  body: unknown;
  origin: string;
}): Promise<ReplayObject> {
  const body = parseWith(startReplaySchema, input.body ?? {});
  const reached = await reachSession(input.caller, input.id);
  const replay = await recordSession(reached, {
    framerate: body.framerate ?? DEFAULT_FRAMERATE,
    maxDurationSeconds: body.max_duration_seconds ?? null,
  });
  return toReplayObject(replay, input.origin);
}

async function ownedReplay(caller: ReplayCaller, id: string, replayId: string): Promise<ReplayRow> {
  const session = await findOwnedComputer(caller, id);
  const replay = await findReplay({ id: replayId, sessionId: session.id, organizationId: session.organizationId });
  if (!replay) throw replayNotFound(id, replayId);
  return replay;
}

function assertHeldHere(replay: ReplayRow) {
  if (replay.nodeId !== getEnv().HOST_ID) {
    throw new AppError(
      "unavailable",
      `Replay '${replay.id}' is held by node '${replay.nodeId}', which is not reachable`,
      {
        detail: "replay_on_other_node",
      },
    );
  }
}

/**
 * POST /computers/{id}/replays/{replay_id}/stop: `processing` until the MP4 is complete; a replay already over as it
 * is.
 */
export async function stopReplay(input: {
  caller: ReplayCaller;
  id: string;
  replayId: string;
  origin: string;
}): Promise<ReplayObject> {
  const replay = await ownedReplay(input.caller, input.id, input.replayId);
  const recorder = recorders().get(replay.id);
  const row = recorder ? await recorder.stop() : replay;
  return toReplayObject(row, input.origin);
}

/** GET /computers/{id}/replays: the session's replays, oldest first, also after it ended. */
export async function listReplays(input: {
  caller: ReplayCaller;
  id: string;
  origin: string;
}): Promise<{ data: ReplayObject[] }> {
  const session = await findOwnedComputer(input.caller, input.id);
  const rows = await listSessionReplays({ sessionId: session.id, organizationId: session.organizationId });
  return { data: rows.map((r) => toReplayObject(r, input.origin)) };
}

/** GET /computers/{id}/replays/{replay_id}: the MP4 (Range for seeking), 202 while it is recorded or finished. */
export async function readReplay(input: {
  caller: ReplayCaller;
  id: string;
  replayId: string;
  range: string | null;
  origin: string;
}): Promise<Response> {
  const replay = await ownedReplay(input.caller, input.id, input.replayId);
  if (replay.status === "recording" || replay.status === "processing") {
    return Response.json(toReplayObject(replay, input.origin), {
      status: 202,
      headers: { "retry-after": replay.status === "processing" ? "1" : "5" },
    });
  }
  if (replay.status === "failed") {
    throw new AppError("conflict", `Replay '${replay.id}' failed and has no video: ${replay.reason ?? "unknown"}`, {
      detail: "replay_failed",
    });
  }
  assertHeldHere(replay);
  return replayFileResponse({ fileName: replay.fileName, range: input.range });
}

/**
 * DELETE /computers/{id}/replays/{replay_id}: a recording one is stopped without finishing; the row and the file go.
 */
export async function deleteReplay(input: { caller: ReplayCaller; id: string; replayId: string }): Promise<void> {
  const replay = await ownedReplay(input.caller, input.id, input.replayId);
  assertHeldHere(replay);
  await recorders().get(replay.id)?.abort();
  await deleteReplayRow(replay.id);
  await unlink(replayFilePath(replay.fileName)).catch(() => {});
}
