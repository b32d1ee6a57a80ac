// The desktop base image as a set-up step, for `prepare` (`npm start`, `npm test`):
// built once per image version (a few minutes: Debian packages are downloaded
// and unpacked), then "up to date" in a second.
// Only where desktops can run (Linux, root); elsewhere the step says why it skipped.
//   import { ensureDesktopImage } from "./setup/desktop-image.mjs";
//   await ensureDesktopImage();                 // prints "✓ desktop base image — built … (312.4 s)"
import path from "node:path";
import { runTsx, step } from "./steps.mjs";

const root = path.resolve(import.meta.dirname, "../..");

export function desktopsPossible() {
  if (process.platform !== "linux") return `not Linux (${process.platform})`;
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return "not running as root";
  return null;
}

/** Builds the desktop base image when missing. Resolves with "up to date", "built …" or "skipped: …"; rejects on a failed build. */
export async function ensureDesktopImage({ required = false } = {}) {
  return step("desktop base image", async () => {
    const why = desktopsPossible();
    if (why) {
      if (required) throw new Error(`desktop sessions cannot run here: ${why}`);
      return `skipped: desktop sessions need Linux and root (${why})`;
    }
    const out = await runTsx("scripts/desktop-image.ts", [], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    return out.includes("up to date") ? "up to date" : `built ${out.trim().split("\n").at(-1)?.replace(/^built desktop image /, "") ?? ""}`;
  });
}
