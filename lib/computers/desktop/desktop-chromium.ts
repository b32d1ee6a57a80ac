// The desktop's own Chromium (docs/desktop-browsing.md): a normal headful window on the
// desktop's X display, run as the desktop user inside the desktop's namespaces, started
// by `launchDesktopChromium` when a browser action first needs it.
//
// Its DevTools channel is `--remote-debugging-pipe`: file descriptors 3 and 4 of the
// process Cabin starts (nsenter → setpriv → env → chromium keep them open). No port is
// opened anywhere — not on the host, not on the desktop's own loopback — and no
// DevToolsActivePort file is written, so no other session, no host process and no
// other program in the desktop can connect to it. Playwright holds the other ends of
// the pipe: `launchPersistentContext` with our own argv (ignoreDefaultArgs) runs
// nsenter as the "browser executable".
import { existsSync } from "node:fs";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { enterArgv, hostEnv } from "@/lib/computers/desktop/enter";
import { allowDesktopDownloads } from "@/lib/computers/desktop/desktop-files";
import { DESKTOP_HOME } from "@/lib/computers/desktop/image";

/** Inside the desktop, in its overlay: snapshots of a persistent desktop keep it like any other file. */
export const DESKTOP_CHROMIUM_PROFILE = `${DESKTOP_HOME}/.config/chromium`;
const HOST_BIN_DIRS = ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"];

const CHROMIUM_FLAGS = [
  "--remote-debugging-pipe",
  `--user-data-dir=${DESKTOP_CHROMIUM_PROFILE}`,
  "--no-first-run",
  "--no-default-browser-check",
  // No keyring daemon runs in the desktop: without this, Chromium waits on one and asks for a password.
  "--password-store=basic",
  // Xvfb has no GPU; the GPU process would only fail and be restarted.
  "--disable-gpu",
  "--start-maximized",
];

function hostBinary(name: string): string {
  const found = HOST_BIN_DIRS.map((dir) => path.join(/* turbopackIgnore: true */ dir, name)).find((file) =>
    existsSync(/* turbopackIgnore: true */ file),
  );
  if (!found) throw new Error(`${name} is not installed on this host (needed to start a desktop's Chromium)`);
  return found;
}

export interface DesktopChromiumLaunch {
  /** Host pid of the desktop's init (`DesktopRunner.pid1`). */
  pid1: number;
  /** The session's directory on the host: its marker (leftover cleanup) and Playwright's nominal profile path. */
  sessionDir: string;
  timeoutMs: number;
}

/**
 * Starts Chromium in the desktop and resolves with its (only, persistent) context once
 * its first tab exists. No --no-sandbox: Chromium refuses to start without a usable
 * sandbox, and its namespace sandbox works inside the desktop's user namespace.
 */
export async function launchDesktopChromium(input: DesktopChromiumLaunch): Promise<BrowserContext> {
  const [nsenter, ...args] = enterArgv(input.pid1, ["chromium", ...CHROMIUM_FLAGS, "about:blank"]);
  const context = await chromium.launchPersistentContext(
    // Playwright only checks that this exists (it makes it otherwise); with ignoreDefaultArgs
    // it is never given to Chromium, whose profile is DESKTOP_CHROMIUM_PROFILE inside the desktop.
    input.sessionDir,
    {
      executablePath: hostBinary(nsenter),
      ignoreDefaultArgs: true,
      args,
      headless: false,
      // The window's own size (maximized on the screen), not an emulated viewport.
      viewport: null,
      // Playwright would send downloads to a directory on the host, which the desktop cannot see;
      // allowDesktopDownloads sends them to the user's ~/Downloads instead.
      acceptDownloads: false,
      env: hostEnv(input.sessionDir),
      timeout: input.timeoutMs,
      // The session's end stops it, with the rest of the desktop.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    },
  );
  try {
    if (!context.pages().length) await context.waitForEvent("page", { timeout: input.timeoutMs });
    await allowDesktopDownloads(context);
    return context;
  } catch (err) {
    await context.close().catch(() => {});
    throw err;
  }
}
