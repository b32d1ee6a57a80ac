// The desktop base image as a set-up step, for `prepare` (`npm start`, `npm test`):
// built once per image version (a few minutes: Debian packages are downloaded
// and unpacked), then "up to date" in a second.
// Only where desktops can run (Linux, root); elsewhere the step says why it skipped.
//   import { ensureDesktopImage } from "./setup/desktop-image.mjs";
//   await ensureDesktopImage();                 // prints "✓ desktop base image — built … (312.4 s)"
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { runTsx, step } from "./steps.mjs";

// Host programs desktops use at run time: ffmpeg (the live view's screen capture,
// lib/computers/desktop/screencast.ts), x11vnc (endpoints.vnc, lib/computers/desktop/vnc.ts),
// slirp4netns and nft (each desktop's network and egress firewall, lib/computers/desktop/network.ts).
const HOST_PACKAGES = [
  ["ffmpeg", "ffmpeg"],
  ["x11vnc", "x11vnc"],
  ["slirp4netns", "slirp4netns"],
  ["nft", "nftables"],
];

/** Installs the missing HOST_PACKAGES with apt-get (the set-up runs as root wherever desktops can run). */
function ensureHostPackages() {
  const missing = HOST_PACKAGES.filter(
    ([bin]) => !["/usr/bin", "/usr/sbin", "/usr/local/bin"].some((dir) => existsSync(path.join(dir, bin))),
  ).map(([, pkg]) => pkg);
  if (!missing.length) return;
  console.log(`  installing ${missing.join(", ")} with apt-get (desktop live view and network)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { stdio: "inherit", env });
}

const root = path.resolve(import.meta.dirname, "../..");

export function desktopsPossible() {
  if (process.platform !== "linux") return `not Linux (${process.platform})`;
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return "not running as root";
  return null;
}

/**
 * Builds the desktop base image when missing. Resolves with "up to date", "built …" or "skipped: …"; rejects on a
 * failed build.
 */
export async function ensureDesktopImage({ required = false } = {}) {
  return step("desktop base image", async () => {
    const why = desktopsPossible();
    if (why) {
      if (required) throw new Error(`desktop sessions cannot run here: ${why}`);
      return `skipped: desktop sessions need Linux and root (${why})`;
    }
    ensureHostPackages();
    const out = await runTsx("scripts/desktop-image.ts", [], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    return out.includes("up to date")
      ? "up to date"
      : `built ${
          out
            .trim()
            .split("\n")
            .at(-1)
            ?.replace(/^built desktop image /, "") ?? ""
        }`;
  });
}

/**
 * `npm start` on a fresh machine: the image builds in a detached process (its log in
 * data/desktop-image.log) while the server starts and serves browser sessions; desktop
 * creates answer 503 with retry-after and /api/health says how far the build is
 * (lib/computers/desktop/host.ts `availability`). A build already running is joined.
 */
export async function startDesktopImageInBackground() {
  return step("desktop base image", async () => {
    const why = desktopsPossible();
    if (why) return `skipped: desktop sessions need Linux and root (${why})`;
    const version = (await runTsx("scripts/desktop-image.ts", ["--status"], { cwd: root, quiet: true })).trim();
    if (version.startsWith("ready")) return "up to date";
    if (version.startsWith("building")) return `being built by another process (${version})`;
    mkdirSync(path.join(root, "data"), { recursive: true });
    const log = path.join(root, "data", "desktop-image.log");
    const out = openSync(log, "a");
    const child = spawn(process.execPath, [path.join(root, "scripts", "setup", "desktop-image-build.mjs")], {
      cwd: root,
      detached: true,
      stdio: ["ignore", out, out],
    });
    child.unref();
    return (
      `building in the background (pid ${child.pid}, log: data/desktop-image.log); desktops are available when ` +
      `it is done`
    );
  });
}
