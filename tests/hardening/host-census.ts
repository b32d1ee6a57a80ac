// What one test server holds on this host, counted from /proc and the file system:
// its process tree, Chromium (the `--cabin-owner=` marker), desktop processes (the
// CABIN_DESKTOP marker), the server's open fds and RSS, mounts under its data dir,
// desktop dirs and the Playwright profiles of its browsers. Other helpers' servers
// share the machine, so everything here is attributed to one server, never global.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { MARKER_VAR, markerPrefix } from "@/lib/computers/desktop/marker";
import { chromiumPidsOf } from "../api/computers-fixtures";
import { overlayMountsUnder } from "../api/desktop-fixtures";

export interface Census {
  /**
   * The server's descendants (Chromium, desktop launchers, ffmpeg, x11vnc...), zombies and Chromium's services
   * excluded.
   */
  childProcesses: number;
  /**
   * Chromium's browser-wide services (`--type=utility`: network, storage, on_device_model...) running more than once
   * per Chromium main. Chromium starts each when first needed, at a moment of its choosing, and keeps it: one of each
   * is the browser's, not a session's, so only a second one would be a leak.
   */
  duplicateChromiumServices: number;
  /**
   * Chromium renderers. Pages account for all but browser-wide ones that Chromium starts when it decides (a spare
   * renderer, or one that came with on_device_model in CI): the soak allows one more per browser, not one per cycle.
   */
  renderers: number;
  chromiumMains: number;
  /**
   * Any process carrying the marker of a desktop under <dataDir>/desktops (also those re-parented away from the
   * server).
   */
  desktopProcesses: number;
  fds: number;
  rssMiB: number;
  /** Mount points under the data dir in our namespace plus overlays with their upper layer there (any namespace). */
  mounts: number;
  desktopDirs: number;
  /** Playwright temp profiles of this server's live browsers. */
  tempProfiles: number;
}

interface Proc {
  pid: number;
  ppid: number;
}

function liveProcs(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z") out.push({ pid: Number(name), ppid: Number(fields[1]) });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export function descendantsOf(rootPid: number): number[] {
  const procs = liveProcs();
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (tree.has(p.ppid) && !tree.has(p.pid)) tree.add(p.pid), (grew = true);
  }
  tree.delete(rootPid);
  return [...tree];
}

function cmdlineOf(pid: number): string | null {
  try {
    // Chromium's children rewrite their argv into one string, so callers look for flags anywhere in it.
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return null; // exited meanwhile
  }
}

/** The `--utility-sub-type=` of a Chromium service process, or null for any other process. */
function serviceKindOf(cmdline: string | null): string | null {
  return cmdline?.includes("--type=utility") ? (/--utility-sub-type=(\S+)/.exec(cmdline)?.[1] ?? "unknown") : null;
}

/**
 * Each descendant of `rootPid` as "name --type=..." (Chromium's process kinds), to say what a count that moved is made
 * of.
 */
export function describeDescendants(rootPid: number): string[] {
  return descendantsOf(rootPid)
    .map((pid) => {
      const cmdline = cmdlineOf(pid);
      if (cmdline === null) return "(exited)";
      const kinds = cmdline.match(/--(?:type|utility-sub-type)=\S+/g) ?? [];
      try {
        return [readFileSync(`/proc/${pid}/comm`, "utf8").trim(), ...kinds].join(" ");
      } catch {
        return "(exited)";
      }
    })
    .sort();
}

/**
 * Descendants split into Chromium's renderers, its services (by sub-type) and everything else
 * (`Census.childProcesses`). A sandboxed
 * process may fork a `--type=broker` (the process that opens files for it under seccomp): a service of its parent's
 * kind.
 */
function processKinds(rootPid: number): { others: number; renderers: number; services: Map<string, number> } {
  const services = new Map<string, number>();
  const parentOf = new Map(liveProcs().map((p) => [p.pid, p.ppid]));
  let others = 0;
  let renderers = 0;
  for (const pid of descendantsOf(rootPid)) {
    const cmdline = cmdlineOf(pid);
    if (cmdline?.includes("--type=renderer")) {
      renderers += 1;
      continue;
    }
    const broker = cmdline?.includes("--type=broker") ?? false;
    const kind = broker
      ? `${serviceKindOf(cmdlineOf(parentOf.get(pid) ?? 0)) ?? "helper"} broker`
      : serviceKindOf(cmdline);
    if (kind === null) others += 1;
    else services.set(kind, (services.get(kind) ?? 0) + 1);
  }
  return { others, renderers, services };
}

/**
 * Pids whose CABIN_DESKTOP marker is one of this data dir's desktops (`markerPrefix`, the digest `markedProcesses`
 * looks for).
 */
export function desktopMarkedPids(dataDir: string): number[] {
  const prefix = `${MARKER_VAR}=${markerPrefix(path.join(dataDir, "desktops"))}`;
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (
        readFileSync(`/proc/${name}/environ`, "latin1")
          .split("\0")
          .some((v) => v.startsWith(prefix))
      )
        pids.push(Number(name));
    } catch {
      // exited meanwhile, or a kernel thread
    }
  }
  return pids;
}

/** The Playwright profile (`--user-data-dir=`) of each live Chromium of this data dir. */
export function profilesOf(dataDir: string): string[] {
  const dirs = new Set<string>();
  for (const pid of chromiumPidsOf(dataDir)) {
    try {
      const dir = /--user-data-dir=(\S+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "))?.[1];
      if (dir && dir.includes("playwright")) dirs.add(dir);
    } catch {
      // exited meanwhile
    }
  }
  return [...dirs];
}

export function mountsUnder(dataDir: string): number {
  const own = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .filter((l) => l.split(" ")[4]?.startsWith(`${dataDir}/`)).length;
  return own + overlayMountsUnder(dataDir);
}

export function desktopDirs(dataDir: string): string[] {
  const root = path.join(dataDir, "desktops");
  return existsSync(root) ? readdirSync(root) : [];
}

function fdCount(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

function rssMiB(pid: number): number {
  try {
    const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

export function census(server: { dataDir: string; process: { pid?: number } }): Census {
  const pid = server.process.pid!;
  const { others, renderers, services } = processKinds(pid);
  const chromiumMains = chromiumPidsOf(server.dataDir).length;
  return {
    childProcesses: others,
    duplicateChromiumServices: [...services.values()].reduce((sum, n) => sum + Math.max(0, n - chromiumMains), 0),
    renderers,
    chromiumMains,
    desktopProcesses: desktopMarkedPids(server.dataDir).length,
    fds: fdCount(pid),
    rssMiB: Math.round(rssMiB(pid)),
    mounts: mountsUnder(server.dataDir),
    desktopDirs: desktopDirs(server.dataDir).length,
    tempProfiles: profilesOf(server.dataDir).length,
  };
}

/** Prints rows of figures as one aligned table (the suites' summary). */
export function printSummary(title: string, header: string[], rows: (string | number)[][]) {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(
    [
      `\n${title}`,
      line(cells[0]),
      `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
      ...cells.slice(1).map(line),
    ].join("\n"),
  );
}
