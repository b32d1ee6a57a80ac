// Replays kept REPLAY_RETENTION_DAYS after they finished (docs/replays.md "Retention"),
// then deleted, row and file, by the node that holds them; files no row names (a
// session or organization deleted with its rows) go too. At start-up, the replays this
// node was recording when its previous process stopped are settled: ffmpeg, left
// without its input, finishes the file on its own, so a file ffprobe reads is kept as
// ready; anything else is failed with the reason.
import { execFile } from "node:child_process";
import { readdir, stat, unlink } from "node:fs/promises";
import { promisify } from "node:util";
import { replayFilePath, replaysDir } from "@/lib/computers/replays/replay-files";
import {
  deleteReplayRow,
  expiredReplays,
  replayFileNames,
  unfinishedReplays,
  updateReplay,
  type ReplayRow,
} from "@/lib/computers/replays/replay-store";
import { recorders } from "@/lib/computers/replays/replay-recorder";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

const run = promisify(execFile);
const BATCH = 200;
/** A file younger than this may be one a recording just started and has no row read yet. */
const ORPHAN_GRACE_MS = 10 * 60_000;

/** One round: expired replays and their files; then files no row names. Returns the replays removed. */
export async function reapExpiredReplays(now = new Date()): Promise<number> {
  const env = getEnv();
  const finishedBefore = new Date(now.getTime() - env.REPLAY_RETENTION_DAYS * 86_400_000);
  let removed = 0;
  for (;;) {
    const batch = await expiredReplays({ nodeId: env.HOST_ID, finishedBefore, limit: BATCH });
    for (const replay of batch) {
      await recorders().get(replay.id)?.abort();
      await deleteReplayRow(replay.id);
      await unlink(replayFilePath(replay.fileName)).catch(() => {});
      removed++;
    }
    if (batch.length < BATCH) break;
  }
  await removeOrphanFiles(now);
  return removed;
}

async function removeOrphanFiles(now: Date) {
  const names = await readdir(replaysDir()).catch(() => [] as string[]);
  if (!names.length) return;
  const named = await replayFileNames(getEnv().HOST_ID);
  for (const name of names) {
    if (named.has(name) || !/^rep_[0-9a-f]{24}\.mp4$/.test(name)) continue;
    const file = replayFilePath(name);
    const age = await stat(file).then(
      (s) => now.getTime() - s.mtimeMs,
      () => 0,
    );
    if (age > ORPHAN_GRACE_MS) await unlink(file).catch(() => {});
  }
}

/** The video's duration as ffprobe reads it, or null when the file is not a complete MP4. */
async function probedDuration(file: string): Promise<number | null> {
  try {
    const { stdout } = await run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=duration",
      "-of",
      "csv=p=0",
      file,
    ]);
    const duration = Number(stdout.trim());
    return Number.isFinite(duration) && duration > 0 ? duration : null;
  } catch {
    return null;
  }
}

async function settle(replay: ReplayRow) {
  const file = replayFilePath(replay.fileName);
  const duration = await probedDuration(file);
  const finishedAt = replay.finishedAt ?? new Date(replay.startedAt.getTime() + (duration ?? 0) * 1000);
  if (duration !== null) {
    const { size } = await stat(file);
    await updateReplay(replay.id, { status: "ready", finishedAt, sizeBytes: BigInt(size), durationSeconds: duration });
    return;
  }
  await unlink(file).catch(() => {});
  await updateReplay(replay.id, {
    status: "failed",
    finishedAt,
    reason: "the server stopped while this replay was being recorded, and its file could not be finished",
  });
}

/** Start-up: replays this node left recording or processing are made ready (a usable file) or failed. */
export async function settleUnfinishedReplays(): Promise<number> {
  const left = await unfinishedReplays(getEnv().HOST_ID);
  for (const replay of left) if (!recorders().has(replay.id)) await settle(replay);
  if (left.length) getLogger().warn({ count: left.length }, "replays of a previous server process settled");
  return left.length;
}
