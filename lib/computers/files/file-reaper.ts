// Deletes the files of sessions that ended more than FILES_RETENTION_HOURS ago (docs/files.md
// "Retention"), on the node that holds their bytes. Runs once at start and then every few
// minutes; a failed round is logged and the next one tries again.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { deleteFileRow, expiredFiles } from "@/lib/computers/files/file-store";
import { removeBytes, removeSessionDir } from "@/lib/computers/files/file-storage";
import { dataDir, getEnv } from "@/lib/env";
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";

const EVERY_MS = 5 * 60_000;
const BATCH = 200;

/** One round: expired rows and their bytes; then session folders no row names any more. Returns the files removed. */
export async function reapExpiredFiles(now = new Date()): Promise<number> {
  const env = getEnv();
  const endedBefore = new Date(now.getTime() - env.FILES_RETENTION_HOURS * 3600_000);
  let removed = 0;
  for (;;) {
    const batch = await expiredFiles({ hostId: env.HOST_ID, endedBefore, limit: BATCH });
    for (const file of batch) {
      await removeBytes(file.computerId, file.id);
      await deleteFileRow(file.id);
      removed++;
    }
    if (batch.length < BATCH) break;
  }
  await removeEmptySessionDirs();
  return removed;
}

/** Folders of sessions without a file row here (all expired or deleted, or the session's row is gone). */
async function removeEmptySessionDirs() {
  const root = path.join(dataDir(), "files");
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!/^comp_[0-9a-f]{24}$/.test(name)) continue;
    const left = await getDb().sessionFile.count({ where: { computerId: name } });
    const live = await getDb().computer.count({ where: { id: name, status: { not: "terminated" } } });
    if (left === 0 && live === 0) await removeSessionDir(name);
  }
}

/** Start-up: the reaper's timer; returns its stop hook. */
export function startFileReaper(): () => void {
  const round = () =>
    reapExpiredFiles().then(
      (removed) => removed && getLogger().info({ removed }, "expired session files removed"),
      (err) => getLogger().warn({ err }, "the session files reaper failed; it runs again later"),
    );
  void round();
  const timer = setInterval(round, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
