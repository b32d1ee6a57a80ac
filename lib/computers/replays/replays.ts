// The replays product (docs/replays.md), as routes, the session create, agent tasks and
// MCP reach it, and its start-up: running recordings stop when their session ends (the
// session-end bus, at the live view's stage, after the viewers were told), replays a
// previous process left unfinished are settled, and the retention reaper runs.
import { getSessionManager } from "@/lib/computers/registry";
import { reapExpiredReplays, settleUnfinishedReplays } from "@/lib/computers/replays/replay-reaper";
import { recorders } from "@/lib/computers/replays/replay-recorder";
import { getLogger } from "@/lib/logger";

export {
  assertRoomForReplay,
  deleteReplay,
  DEFAULT_FRAMERATE,
  listReplays,
  readReplay,
  recordForTask,
  recordNewSession,
  recordSession,
  startReplay,
  stopReplay,
  type ReplayCaller,
} from "@/lib/computers/replays/replay-service";
export { toReplayObject, replayViewUrl, type ReplayObject } from "@/lib/computers/replays/replay-object";
export { taskReplays, listSessionReplays } from "@/lib/computers/replays/replay-store";
export { reapExpiredReplays } from "@/lib/computers/replays/replay-reaper";

const REAP_EVERY_MS = 10 * 60_000;

/** The recordings an agent task started stop with it (a kept-alive session goes on unrecorded). */
export async function stopTaskReplays(taskId: string): Promise<void> {
  await Promise.all([...recorders().values()].filter((r) => r.row.taskId === taskId).map((r) => r.stop()));
}

/** Every recording and MP4 still being finished in this process (a graceful shutdown waits for them). */
export async function finishReplays(): Promise<void> {
  await Promise.all([...recorders().values()].map((r) => r.finished));
}

/** Start-up (startComputers): the session-end subscription, the settling of a previous process's replays, the reaper. */
export function startReplays(): () => void {
  const unsubscribe = getSessionManager().ends.subscribe("live_view", ({ sessionId }) => {
    for (const recorder of recorders().values()) if (recorder.sessionId === sessionId) void recorder.stop();
  });
  const round = () =>
    reapExpiredReplays().then(
      (removed) => removed && getLogger().info({ removed }, "expired replays removed"),
      (err) => getLogger().warn({ err }, "the replays reaper failed; it runs again later"),
    );
  void settleUnfinishedReplays()
    .catch((err) => getLogger().warn({ err }, "replays of a previous process could not be settled"))
    .then(round);
  const timer = setInterval(round, REAP_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}
