// One server per data folder (docs/operations.md "One server per data folder"). The
// markers of the Chromium and desktop processes a server starts, its desktop folders
// and its heartbeat all derive from DATA_DIR (and HOST_ID), so a second server on the
// same folder would take the first's processes for leftovers of a crash and reap them
// at start-up, and either one's clean stop would end the other's. The first server
// holds DATA_DIR/server.lock (its pid and that process's start time); a second one
// refuses to start, naming the folder and the holder. A lock whose process is gone
// (a kill -9, a power loss) is stale and taken over, so a crash never blocks a restart.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import { dataDir, getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

const LOCK_FILE = "server.lock";
/** A lock file younger than this that cannot be read yet is being written by a server starting now. */
const WRITING_GRACE_MS = 5_000;

interface LockHolder {
  pid: number;
  /** The process's start time in clock ticks after boot (/proc/<pid>/stat): a reused pid is not the holder. */
  started: string | null;
  port: number;
  hostId: string;
}

/** Thrown when another live server holds the data folder; the message says which and what to change. */
export class DataDirInUse extends Error {}

function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(/* turbopackIgnore: true */ `/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function holderAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  const started = processStart(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

function readHolder(file: string): LockHolder | "unreadable" | "gone" {
  try {
    const holder = JSON.parse(readFileSync(/* turbopackIgnore: true */ file, "utf8")) as LockHolder;
    return typeof holder.pid === "number" ? holder : "unreadable";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : "unreadable";
  }
}

/** Takes DATA_DIR's lock for this process; throws DataDirInUse when a live server holds it. Returns the release. */
export function takeDataDirLock(): () => void {
  const env = getEnv();
  const dir = dataDir(env);
  mkdirSync(/* turbopackIgnore: true */ dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, started: processStart(process.pid), port: env.PORT, hostId: env.HOST_ID };
  const release = () => {
    const holder = readHolder(file);
    if (typeof holder === "object" && holder.pid === process.pid)
      rmSync(/* turbopackIgnore: true */ file, { force: true });
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(/* turbopackIgnore: true */ file, "wx", 0o600);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = readHolder(file);
    if (holder === "gone") continue;
    if (holder === "unreadable") {
      let age = Number.POSITIVE_INFINITY;
      try {
        age = Date.now() - statSync(/* turbopackIgnore: true */ file).mtimeMs;
      } catch {
        continue;
      }
      if (age < WRITING_GRACE_MS) throw inUse(dir, null);
    } else if (holder.pid !== process.pid && holderAlive(holder)) {
      throw inUse(dir, holder);
    }
    // Stale: its server is gone.
    getLogger().warn({ dataDir: dir, previous: holder }, "taking over the data folder of a server that is gone");
    rmSync(/* turbopackIgnore: true */ file, { force: true });
  }
  throw inUse(dir, null);
}

function inUse(dir: string, holder: LockHolder | null): DataDirInUse {
  const who = holder
    ? `the Cabin server with pid ${holder.pid} (port ${holder.port}, HOST_ID ${holder.hostId})`
    : "another Cabin server starting at the same moment";
  return new DataDirInUse(
    `DATA_DIR ${dir} is in use by ${who}: give every server its own DATA_DIR ` +
      "(its Chromium and desktop processes and folders are found by it, so two servers on one folder would end " +
      "each other's sessions).",
  );
}

/** Boot's first part: holds the data folder for this process, or ends the process when another server holds it. */
export async function startDataDirLock(): Promise<() => Promise<void>> {
  let release: () => void;
  try {
    release = takeDataDirLock();
  } catch (err) {
    if (!(err instanceof DataDirInUse)) throw err;
    getLogger().fatal({ dataDir: dataDir() }, err.message);
    console.error(`Cabin cannot start: ${err.message}`);
    process.exit(1);
  }
  return async () => release();
}
