// Finds the Chromium the app will launch; on Debian as root installs the
// system one when none is found; otherwise says what to do. Never fails the
// start: the app runs without browsers and /api/health reports it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromiumHelp, findChromium } from "../../lib/computers/browser/find-chromium";

function describe() {
  const found = findChromium();
  return found ? `${found.path} (${found.source})` : null;
}

let result = describe();
if (!result && existsSync("/etc/debian_version") && process.getuid?.() === 0) {
  console.log("  no Chromium found: installing Debian's chromium with apt-get");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  result = describe();
}
if (result) console.log(`  using ${result}`);
else console.warn(`  WARNING: ${chromiumHelp().replace(/\n/g, "\n  ")}`);
