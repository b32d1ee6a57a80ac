// Chromium processes this server started, found by a marker switch in their
// command line (Chromium ignores unknown switches). Playwright 1.65 no longer
// exposes the browser PID, and a SIGKILLed server cannot clean up after itself,
// so the marker is how we count our processes (health, leak checks) and reap
// leftovers at start-up. Linux only (/proc); elsewhere the functions return
// empty results and leftovers rely on Chromium exiting when its pipe closes.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { dataDir, getEnv } from "@/lib/env";

const MARKER_SWITCH = "--cabin-owner=";

/** Identifies this installation (data dir + host id), so two servers on one machine never reap each other. */
export function ownerMarker(): string {
  const env = getEnv();
  const hash = createHash("sha256")
    .update(`${dataDir(env)}\0${env.HOST_ID}`)
    .digest("hex")
    .slice(0, 16);
  return `${MARKER_SWITCH}${hash}`;
}

/** The switch for one browser launch: owner plus a launch id. */
export function launchMarker(launchId: string): string {
  return `${ownerMarker()}.${launchId}`;
}

interface ProcInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

function readProcs(): ProcInfo[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(/* turbopackIgnore: true */ `/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      const stat = readFileSync(/* turbopackIgnore: true */ `/proc/${name}/stat`, "utf8");
      // Field 4 after the parenthesized command name (which may contain spaces).
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      out.push({ pid: Number(name), ppid, cmdline });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Main browser processes carrying `marker` (a prefix: owner or one launch). */
export function markedPids(marker: string): number[] {
  return readProcs()
    .filter((p) => p.cmdline.includes(marker + " ") || p.cmdline.includes(marker + "."))
    .map((p) => p.pid);
}

/** Every process in the trees of our marked browsers (renderers, GPU, zygotes). */
export function processTreeCount(marker: string = ownerMarker()): number {
  const procs = readProcs();
  const children = new Map<number, number[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const roots = procs.filter((p) => p.cmdline.includes(marker)).map((p) => p.pid);
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return seen.size;
}

/** SIGKILLs what is left of one launch (a hung or half-dead browser). */
export function killLaunch(launchId: string): void {
  for (const pid of markedPids(launchMarker(launchId))) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** SIGKILLs marked browsers whose launch id is not in `keep`; returns how many. */
export function killMarked(options: { keepLaunchIds?: Set<string> } = {}): number {
  const owner = ownerMarker();
  let killed = 0;
  for (const p of readProcs()) {
    const at = p.cmdline.indexOf(owner + ".");
    if (at < 0) continue;
    const launchId = p.cmdline.slice(at + owner.length + 1).split(" ")[0];
    if (options.keepLaunchIds?.has(launchId)) continue;
    try {
      process.kill(p.pid, "SIGKILL");
      killed++;
    } catch {
      // Already gone.
    }
  }
  return killed;
}

/** The temporary profile Playwright makes for each `chromium.launch` (in os.tmpdir()). */
const PROFILE_PREFIX = "playwright_chromiumdev_profile-";
/**
 * Playwright spawns Chromium right after making its profile: younger dirs may be another
 * server's launch in progress (the pool looks every few seconds, so leave a loaded host room).
 */
const PROFILE_MIN_AGE_MS = 5_000;

/**
 * Removes Playwright profiles that no running process uses: a SIGKILLed server
 * leaves its browser's (megabytes each) behind. Safe beside other servers on
 * the machine: a profile in use appears in its Chromium's `--user-data-dir=`.
 */
export function reapOrphanProfiles(now = Date.now()): number {
  const tmp = os.tmpdir();
  let names: string[];
  try {
    names = readdirSync(/* turbopackIgnore: true */ tmp).filter((name) => name.startsWith(PROFILE_PREFIX));
  } catch {
    return 0;
  }
  if (!names.length) return 0;
  const inUse = readProcs()
    .map((p) => p.cmdline)
    .join(" ");
  let removed = 0;
  for (const name of names) {
    const dir = path.join(tmp, name);
    try {
      if (
        inUse.includes(`--user-data-dir=${dir}`) ||
        now - statSync(/* turbopackIgnore: true */ dir).mtimeMs < PROFILE_MIN_AGE_MS
      )
        continue;
      rmSync(/* turbopackIgnore: true */ dir, { recursive: true, force: true });
      removed++;
    } catch {
      // Removed by someone else meanwhile.
    }
  }
  return removed;
}
