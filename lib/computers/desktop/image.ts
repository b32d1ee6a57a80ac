// The desktop base image: a Debian root filesystem Cabin builds itself (never the
// host's `/`), read-only under every session's overlay. Its version is derived from
// everything that shapes it (package list, build recipe, uid shift), so a change to
// any of them builds a new image beside the old one, and snapshots record it.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getEnv } from "@/lib/env";

/** Bump when the build recipe (scripts, customize steps) changes meaning. */
export const IMAGE_RECIPE_VERSION = 2;
export const IMAGE_SUITE = "bookworm";

/**
 * Files of the image are owned by SUBID_BASE + their uid: a session runs in a user
 * namespace mapping 0..65535 inside onto these host ids, so "root" inside a desktop
 * (sudo, apt) is an unprivileged, unnamed user on the host.
 */
export const SUBID_BASE = 1_000_000;
export const SUBID_COUNT = 65_536;
/** The desktop user inside every session (apps, exec, xdotool). */
export const DESKTOP_UID = 2000;
export const DESKTOP_USER = "user";
export const DESKTOP_HOME = "/home/user";
export const DESKTOP_HOSTNAME = "cabin-desktop";

export const IMAGE_PACKAGES = [
  // display, window manager, terminal, browser
  "xvfb",
  "xauth",
  "openbox",
  "xterm",
  "chromium",
  "fonts-dejavu-core",
  "fonts-liberation",
  "xfonts-base",
  // driving the desktop: input, window list, readiness probes, screenshots
  "xdotool",
  "wmctrl",
  "x11-utils",
  "imagemagick",
  // the session's system: pid 1, mounts, sudo for the user, everyday tools
  "tini",
  "mount",
  "sudo",
  "ca-certificates",
  "procps",
  "less",
  "vim-tiny",
  "curl",
] as const;

/** Paths dpkg skips: docs and translations are most of the weight and nobody reads them here. */
export const DPKG_EXCLUDES = ["/usr/share/man/*", "/usr/share/info/*", "/usr/share/doc/*", "/usr/share/locale/*"];
export const DPKG_INCLUDES = ["/usr/share/doc/*/copyright", "/usr/share/locale/locale.alias"];

export function imageVersion(): string {
  const recipe = JSON.stringify({
    recipe: IMAGE_RECIPE_VERSION,
    suite: IMAGE_SUITE,
    packages: IMAGE_PACKAGES,
    excludes: DPKG_EXCLUDES,
    includes: DPKG_INCLUDES,
    subid: SUBID_BASE,
    uid: DESKTOP_UID,
  });
  return `${IMAGE_SUITE}-${createHash("sha256").update(recipe).digest("hex").slice(0, 12)}`;
}

/**
 * Outside the project by default: with a whole Debian tree inside the project
 * directory, `next build` (Turbopack) never finishes.
 */
export const DEFAULT_IMAGES_DIR = path.join(os.homedir(), ".cache", "cabin", "desktop-images");

export function imagesDir(): string {
  return path.resolve(/* turbopackIgnore: true */ getEnv().DESKTOP_IMAGES_DIR ?? DEFAULT_IMAGES_DIR);
}

export interface ImageManifest {
  version: string;
  suite: string;
  packages: string[];
  built_at: string;
  build_seconds: number;
  size_bytes: number;
  subid_base: number;
}

export interface DesktopImage {
  version: string;
  rootfs: string;
  manifest: ImageManifest;
}

/** The built image of the current version, or null. The manifest is written last, so it marks a complete build. */
export function findImage(version = imageVersion()): DesktopImage | null {
  const dir = path.join(imagesDir(), version);
  const manifestFile = path.join(dir, "manifest.json");
  if (!existsSync(/* turbopackIgnore: true */ manifestFile)) return null;
  try {
    const manifest = JSON.parse(readFileSync(/* turbopackIgnore: true */ manifestFile, "utf8")) as ImageManifest;
    return { version, rootfs: path.join(dir, "rootfs"), manifest };
  } catch {
    return null;
  }
}

/** What a running build of the image reports (`progress.json` in its work directory, see buildImage). */
export interface ImageBuildProgress {
  version: string;
  pid: number;
  started_at: string;
  /** The build's latest progress line. */
  step: string;
}

export const PROGRESS_FILE = "progress.json";

/**
 * The build of `version` running now (a `.build-<version>-<pid>` directory whose process
 * is alive), or null. Lets a server started before its image is ready say so (503 with
 * retry-after, health) instead of "not built".
 */
export function imageBuildInProgress(version = imageVersion()): ImageBuildProgress | null {
  const root = imagesDir();
  let names: string[];
  try {
    names = readdirSync(/* turbopackIgnore: true */ root);
  } catch {
    return null;
  }
  for (const name of names) {
    const pid = new RegExp(`^\\.build-${version}-(\\d+)$`).exec(name)?.[1];
    if (!pid || !existsSync(/* turbopackIgnore: true */ `/proc/${pid}`)) continue;
    try {
      return JSON.parse(
        readFileSync(/* turbopackIgnore: true */ path.join(root, name, PROGRESS_FILE), "utf8"),
      ) as ImageBuildProgress;
    } catch {
      return { version, pid: Number(pid), started_at: new Date().toISOString(), step: "starting" };
    }
  }
  return null;
}
