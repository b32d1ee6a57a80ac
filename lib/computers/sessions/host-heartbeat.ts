// When this host was last known alive, so that sessions a crash (kill -9,
// power loss) left live can be ended at the time the host died rather than the
// time it came back. A file per HOST_ID in DATA_DIR whose modification time is
// the heartbeat; the SessionManager's reaper beats it, its boot reads it first.
import fs from "node:fs";
import path from "node:path";
import { dataDir, getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

/** How stale the heartbeat may be: a crashed row's terminated_at is at most this late. */
export const HEARTBEAT_EVERY_MS = 1_000;

const fileFor = (hostId: string) => path.join(dataDir(), `heartbeat-${hostId.replace(/[^A-Za-z0-9._-]/g, "_")}`);

export class HostHeartbeat {
  private lastBeatAt = 0;
  private writing = false;
  private readonly file = fileFor(getEnv().HOST_ID);

  /** The previous process's last beat, or null when there was none (first start, or the file was removed). */
  lastAlive(): Date | null {
    try {
      return fs.statSync(/* turbopackIgnore: true */ this.file).mtime;
    } catch {
      return null;
    }
  }

  /** Called every reaper tick; touches the file at most every HEARTBEAT_EVERY_MS, without blocking the tick. */
  beat(now: number): void {
    if (this.writing || now - this.lastBeatAt < HEARTBEAT_EVERY_MS) return;
    this.lastBeatAt = now;
    this.writing = true;
    fs.promises
      .writeFile(/* turbopackIgnore: true */ this.file, "")
      .catch((err) => getLogger().warn({ err }, "host heartbeat not written"))
      .finally(() => (this.writing = false));
  }
}
