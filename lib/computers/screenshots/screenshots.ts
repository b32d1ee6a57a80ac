// Screenshots returned by URL (base64: false) are files under
// DATA_DIR/screenshots/<session id>/, served by GET /computers/{id}/screenshots/{name}
// to a capability token (screenshotUrl) or the API key, and swept after SCREENSHOT_TTL_MS.
// A few are kept for review (docs/dashboard.md "Reviewing an ended session") under
// DATA_DIR/kept-screenshots/<session id>/ for KEPT_SCREENSHOT_RETENTION_MS: a finished
// task's last step (`keepScreenshot`) and the session's screen when it ended
// (`storeFinalScreenshot`). (turbopackIgnore: these are runtime data paths; without it
// the build traces the whole data directory.)
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { dataDir } from "@/lib/env";

export const SCREENSHOT_TTL_MS = 15 * 60_000;
/** How long kept screenshots (a finished task's last step, an ended session's last screen) stay: 7 days. */
export const KEPT_SCREENSHOT_RETENTION_MS = 7 * 24 * 3_600_000;
const NAME = /^shot_\d+_[0-9a-f]{12}\.(png|jpg)$/;
const FINAL = /^final_(\d+)\.(png|jpg)$/;
const ID = /^comp_[0-9a-f]+$/;

function root(): string {
  return path.join(dataDir(), "screenshots");
}

function keptRoot(): string {
  return path.join(dataDir(), "kept-screenshots");
}

const extension = (mime: string) => (mime === "image/jpeg" ? "jpg" : "png");
const mimeOf = (name: string) => (name.endsWith(".jpg") ? "image/jpeg" : "image/png");

async function writeInto(dir: string, name: string, data: Buffer): Promise<void> {
  await mkdir(/* turbopackIgnore: true */ dir, { recursive: true });
  await writeFile(/* turbopackIgnore: true */ path.join(dir, name), data, { mode: 0o600 });
}

export async function storeScreenshot(computerId: string, data: Buffer, mime: string): Promise<string> {
  if (!ID.test(computerId)) throw new Error("bad session id");
  const name = `shot_${Date.now()}_${randomBytes(6).toString("hex")}.${extension(mime)}`;
  await writeInto(path.join(root(), computerId), name, data);
  return name;
}

async function readIfThere(file: string, name: string): Promise<{ data: Buffer; mime: string } | null> {
  try {
    const data = await readFile(/* turbopackIgnore: true */ file);
    return { data, mime: mimeOf(name) };
  } catch {
    return null;
  }
}

/** The file's bytes and type (a kept copy once the original expired), or null when malformed, unknown or expired. */
export async function readScreenshot(computerId: string, name: string): Promise<{ data: Buffer; mime: string } | null> {
  if (!ID.test(computerId) || !NAME.test(name)) return null;
  return (
    (await readIfThere(path.join(root(), computerId, name), name)) ??
    (await readIfThere(path.join(keptRoot(), computerId, name), name))
  );
}

/** Keeps screenshot `name` past SCREENSHOT_TTL_MS (a finished task's last step); false when it is already gone. */
export async function keepScreenshot(computerId: string, name: string): Promise<boolean> {
  if (!ID.test(computerId) || !NAME.test(name)) return false;
  const dir = path.join(keptRoot(), computerId);
  await mkdir(/* turbopackIgnore: true */ dir, { recursive: true });
  try {
    await copyFile(
      /* turbopackIgnore: true */ path.join(root(), computerId, name),
      /* turbopackIgnore: true */ path.join(dir, name),
    );
    return true;
  } catch {
    return false;
  }
}

/** The session's screen as it ended, one per session (a second call replaces it). */
export async function storeFinalScreenshot(computerId: string, data: Buffer, mime: string): Promise<void> {
  if (!ID.test(computerId)) throw new Error("bad session id");
  await writeInto(path.join(keptRoot(), computerId), `final_${Date.now()}.${extension(mime)}`, data);
}

export interface FinalScreenshot {
  data: Buffer;
  mime: string;
  takenAt: Date;
}

/** When the newest final screenshot of a session kept on this node was taken, and its file; null when there is none. */
export async function findFinalScreenshot(computerId: string): Promise<{ name: string; takenAt: Date } | null> {
  if (!ID.test(computerId)) return null;
  const names = await readdir(/* turbopackIgnore: true */ path.join(keptRoot(), computerId)).catch(
    () => [] as string[],
  );
  const newest = names
    .map((name) => ({ name, at: Number(FINAL.exec(name)?.[1]) }))
    .filter((f) => Number.isFinite(f.at))
    .sort((a, b) => b.at - a.at)[0];
  return newest ? { name: newest.name, takenAt: new Date(newest.at) } : null;
}

/** The newest final screenshot of a session kept on this node, or null. */
export async function readFinalScreenshot(computerId: string): Promise<FinalScreenshot | null> {
  const found = await findFinalScreenshot(computerId);
  if (!found) return null;
  const file = await readIfThere(path.join(keptRoot(), computerId, found.name), found.name);
  return file ? { ...file, takenAt: found.takenAt } : null;
}

/**
 * Removes the files of `base`'s session folders older than `ttlMs` (by the time in their name, else mtime), and emptied
 * folders.
 */
async function sweepFolder(base: string, ttlMs: number, now: number): Promise<void> {
  let dirs: string[];
  try {
    dirs = await readdir(/* turbopackIgnore: true */ base);
  } catch {
    return;
  }
  for (const dir of dirs) {
    const full = path.join(base, dir);
    const files = await readdir(/* turbopackIgnore: true */ full).catch(() => [] as string[]);
    let kept = 0;
    for (const file of files) {
      const taken = Number(file.split(/[_.]/)[1]);
      const shot = path.join(full, file);
      if (Number.isFinite(taken) && now - taken > ttlMs) await rm(/* turbopackIgnore: true */ shot, { force: true });
      else kept++;
    }
    if (kept === 0) {
      const info = await stat(/* turbopackIgnore: true */ full).catch(() => null);
      if (info && now - info.mtimeMs > Math.min(ttlMs, SCREENSHOT_TTL_MS))
        await rm(/* turbopackIgnore: true */ full, { recursive: true, force: true });
    }
  }
}

export async function sweepScreenshots(now = Date.now()): Promise<void> {
  await sweepFolder(root(), SCREENSHOT_TTL_MS, now);
  await sweepFolder(keptRoot(), KEPT_SCREENSHOT_RETENTION_MS, now);
}
