// Screenshots returned by URL (base64: false) are files under
// DATA_DIR/screenshots/<session id>/, served by GET /computers/{id}/screenshots/{name}
// to a capability token (screenshotUrl) or the API key, and swept after SCREENSHOT_TTL_MS. (turbopackIgnore: these
// are runtime data paths; without it the build traces the whole data directory.)
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { dataDir } from "@/lib/env";

export const SCREENSHOT_TTL_MS = 15 * 60_000;
const NAME = /^shot_\d+_[0-9a-f]{12}\.(png|jpg)$/;
const ID = /^comp_[0-9a-f]+$/;

function root(): string {
  return path.join(dataDir(), "screenshots");
}

export async function storeScreenshot(computerId: string, data: Buffer, mime: string): Promise<string> {
  if (!ID.test(computerId)) throw new Error("bad session id");
  const name = `shot_${Date.now()}_${randomBytes(6).toString("hex")}.${mime === "image/jpeg" ? "jpg" : "png"}`;
  const dir = path.join(root(), computerId);
  const file = path.join(dir, name);
  await mkdir(/* turbopackIgnore: true */ dir, { recursive: true });
  await writeFile(/* turbopackIgnore: true */ file, data, { mode: 0o600 });
  return name;
}

/** The file's bytes and type, or null when the name is malformed, unknown or expired. */
export async function readScreenshot(computerId: string, name: string): Promise<{ data: Buffer; mime: string } | null> {
  if (!ID.test(computerId) || !NAME.test(name)) return null;
  try {
    const file = path.join(root(), computerId, name);
    const data = await readFile(/* turbopackIgnore: true */ file);
    return { data, mime: name.endsWith(".jpg") ? "image/jpeg" : "image/png" };
  } catch {
    return null;
  }
}

export async function sweepScreenshots(now = Date.now()): Promise<void> {
  let dirs: string[];
  try {
    const dir = root();
    dirs = await readdir(/* turbopackIgnore: true */ dir);
  } catch {
    return;
  }
  for (const dir of dirs) {
    const full = path.join(root(), dir);
    const files = await readdir(/* turbopackIgnore: true */ full).catch(() => [] as string[]);
    let kept = 0;
    for (const file of files) {
      const taken = Number(file.split("_")[1]);
      const shot = path.join(full, file);
      if (Number.isFinite(taken) && now - taken > SCREENSHOT_TTL_MS)
        await rm(/* turbopackIgnore: true */ shot, { force: true });
      else kept++;
    }
    if (kept === 0) {
      const info = await stat(/* turbopackIgnore: true */ full).catch(() => null);
      if (info && now - info.mtimeMs > SCREENSHOT_TTL_MS)
        await rm(/* turbopackIgnore: true */ full, { recursive: true, force: true });
    }
  }
}
