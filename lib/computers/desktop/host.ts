// What this host offers desktops: whether they can run here (and why not), where
// their files live, and the processes and mounts Cabin left for them — found by the
// CABIN_DESKTOP marker every launcher carries, so a restarted server can clean up
// the desktops of one that was killed.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { dataDir, getEnv } from "@/lib/env";
import { findImage, imageBuildInProgress, imageVersion, type DesktopImage } from "@/lib/computers/desktop/image";
import { MARKER_VAR, markerPrefix } from "@/lib/computers/desktop/marker";
import { supportedArch, waitGone } from "@/lib/computers/desktop/sandbox";

const HOST_TOOLS = ["unshare", "nsenter", "setpriv", "tar", "zstd", "mount", "perl", "slirp4netns", "nft"];
let toolsChecked: string[] | null = null;

export function sessionsRoot(): string {
  return path.join(dataDir(), "desktops");
}

function missingTools(): string[] {
  toolsChecked ??= HOST_TOOLS.filter(
    (tool) =>
      !["/usr/bin", "/usr/sbin", "/bin", "/sbin"].some((dir) =>
        existsSync(/* turbopackIgnore: true */ path.join(/* turbopackIgnore: true */ dir, tool)),
      ),
  );
  return toolsChecked;
}

/** `retryAfterSeconds`: desktops will come without anyone doing anything (the image is being built). */
export type Availability =
  | { ok: true; image: DesktopImage }
  | { ok: false; reason: string; retryAfterSeconds?: number };

/** Whether desktops can start on this host now, and if not, a sentence saying why. */
export function availability(): Availability {
  if (!getEnv().DESKTOP_ENABLED)
    return { ok: false, reason: "Desktop sessions are turned off on this server (DESKTOP_ENABLED=0)" };
  if (process.platform !== "linux") {
    return {
      ok: false,
      reason: `Desktop sessions need Linux (namespaces and overlayfs); this server runs on ${process.platform}`,
    };
  }
  if (process.getuid?.() !== 0) {
    return {
      ok: false,
      reason:
        `Desktop sessions need the server to run as root (it creates namespaces and overlay mounts); it runs as ` +
        `uid ${process.getuid?.()}`,
    };
  }
  if (!supportedArch())
    return { ok: false, reason: `Desktop sessions support x64 and arm64 hosts; this one is ${process.arch}` };
  const missing = missingTools();
  if (missing.length)
    return {
      ok: false,
      reason:
        `Desktop sessions need ${missing.join(", ")} on the host (apt-get ` +
        `install ${missing.map((tool) => (tool === "nft" ? "nftables" : tool)).join(" ")})`,
    };
  const image = findImage();
  if (!image) {
    const building = imageBuildInProgress();
    if (building) {
      const elapsed = Math.round((Date.now() - Date.parse(building.started_at)) / 1000);
      return {
        ok: false,
        retryAfterSeconds: 30,
        reason:
          `The desktop base image ${building.version} is being built (${elapsed} s so far; ` +
          `now: ${building.step}); desktop sessions start when it is done, usually within a few minutes`,
      };
    }
    return {
      ok: false,
      reason:
        `The desktop base image ${imageVersion()} is not built on this server; run \`npm run desktop:image\` (a ` +
        `few minutes, once)`,
    };
  }
  return { ok: true, image };
}

/** Host pids of processes carrying the marker of a desktop under `root`. */
export function markedProcesses(root = sessionsRoot()): number[] {
  // The path form is what servers before the digest marker wrote: still reaped after an upgrade.
  const prefixes = [`${MARKER_VAR}=${markerPrefix(root)}`, `${MARKER_VAR}=${root}/`];
  const pids: number[] = [];
  for (const name of readdirSync(/* turbopackIgnore: true */ "/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = readFileSync(/* turbopackIgnore: true */ `/proc/${name}/environ`, "latin1");
      if (env.split("\0").some((v) => prefixes.some((prefix) => v.startsWith(prefix)))) pids.push(Number(name));
    } catch {
      // exited meanwhile, or a kernel thread
    }
  }
  return pids;
}

/** Mount points under `root` in this process's namespace (there should be none: overlays live in the desktops' own). */
function mountsUnder(root: string): string[] {
  const lines = readFileSync(/* turbopackIgnore: true */ "/proc/self/mountinfo", "utf8").split("\n");
  return lines.map((l) => l.split(" ")[4]).filter((p): p is string => !!p && p.startsWith(`${root}/`));
}

export function sessionDirCount(root = sessionsRoot()): number {
  try {
    return readdirSync(/* turbopackIgnore: true */ root).length;
  } catch {
    return 0;
  }
}

/** Boot: kill leftover desktops of a previous server process, unmount and delete their files. */
export async function cleanOrphans(
  root = sessionsRoot(),
): Promise<{ processes: number; mounts: number; dirs: number }> {
  const pids = markedProcesses(root);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  await Promise.all(pids.map((pid) => waitGone(pid, 5000)));
  const mounts = mountsUnder(root).sort((a, b) => b.length - a.length);
  for (const mount of mounts) spawnSync("umount", ["-l", mount]);
  const dirs = sessionDirCount(root);
  if (existsSync(/* turbopackIgnore: true */ root)) {
    for (const name of readdirSync(/* turbopackIgnore: true */ root))
      await rm(/* turbopackIgnore: true */ path.join(root, name), { recursive: true, force: true });
  }
  return { processes: pids.length, mounts: mounts.length, dirs };
}
