// Finds the Chromium the app will launch; on Debian as root installs Debian's headless
// shell when it is missing (the pool's preferred Chromium, see find-chromium.ts), or the
// full chromium if that package is not available; otherwise says what to do. Never
// fails the start: the app runs without browsers and /api/health reports it. Installs ffmpeg
// too (replays), the same way.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromiumHelp, findChromium, HEADLESS_SHELL_CANDIDATES } from "../../lib/computers/browser/find-chromium";

function describe() {
  const found = findChromium();
  return found ? `${found.path} (${found.source})` : null;
}

function apt(args: string[]): boolean {
  try {
    execFileSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    return true;
  } catch {
    return false;
  }
}

const found = findChromium();
const wantsShell = found?.source !== "CHROMIUM_PATH" && !HEADLESS_SHELL_CANDIDATES.some((p) => existsSync(p));
if (wantsShell && existsSync("/etc/debian_version") && process.getuid?.() === 0) {
  console.log("  installing Debian's chromium-headless-shell with apt-get (Chromium without its browser UI)");
  if (apt(["update", "-qq"]) && !apt(["install", "-y", "-qq", "chromium-headless-shell"]) && !found)
    apt(["install", "-y", "-qq", "chromium"]);
}
// Replays (docs/replays.md) encode with the host's ffmpeg, browser sessions' as much as desktops'.
if (!["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].some((p) => existsSync(p)) && existsSync("/etc/debian_version")) {
  if (process.getuid?.() === 0) {
    console.log("  installing ffmpeg with apt-get (replays: recorded sessions as MP4)");
    if (!apt(["install", "-y", "-qq", "--no-install-recommends", "ffmpeg"]) && apt(["update", "-qq"]))
      apt(["install", "-y", "-qq", "--no-install-recommends", "ffmpeg"]);
  } else console.warn("  WARNING: no ffmpeg: replays cannot be recorded (apt-get install ffmpeg)");
}
const result = describe();
if (result) console.log(`  using ${result}`);
else console.warn(`  WARNING: ${chromiumHelp().replace(/\n/g, "\n  ")}`);
