// Starting one pool Chromium: sandboxed when the host allows it (launch-user.ts), with a
// launch marker so a later server process can find and kill what this one left, and a
// loopback DevTools port when sessions' CDP endpoints are offered. BrowserPool owns the
// processes; this only starts them and remembers how the last start went (for health).
import { randomBytes } from "node:crypto";
import { chromium, type Browser } from "playwright-core";
import { getLogger } from "@/lib/logger";
import { chromiumHelp, findChromium } from "@/lib/computers/browser/find-chromium";
import { killLaunch, launchMarker } from "@/lib/computers/browser/processes";
import { cdpEnabled } from "@/lib/computers/browser/cdp-enabled";
import { CDP_PORT_FLAGS } from "@/lib/computers/browser/cdp-target";
import { sandboxedPlan, unsandboxedPlan, type LaunchPlan, type SandboxMode } from "@/lib/computers/browser/launch-user";
import { DISABLE_FEATURES_FLAG, PLAYWRIGHT_DISABLE_FEATURES_FLAG } from "@/lib/computers/browser/chromium-features";
import { childProcessEnvironment } from "@/lib/env";

// No --no-sandbox: Playwright adds it only for the logged fallback (launch-user.ts, LaunchPlan.chromiumSandbox).
export const CHROMIUM_FLAGS = [
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  // WebRTC's UDP does not go through a proxy: only proxied (TCP, so EgressProxy-checked) candidates.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  DISABLE_FEATURES_FLAG,
];

export class ChromiumLauncher {
  lastLaunchError: string | null = null;
  /** How the last Chromium was launched; "off" with `sandboxFallback` saying why the sandbox was not used. */
  sandbox: SandboxMode | null = null;
  sandboxFallback: string | null = null;

  /** A new Chromium and the id its processes are marked with (`launchMarker`). */
  async launch(): Promise<{ launchId: string; browser: Browser }> {
    const found = findChromium();
    if (!found) {
      this.lastLaunchError = chromiumHelp();
      throw new Error(this.lastLaunchError);
    }
    const launchId = randomBytes(4).toString("hex");
    const started = performance.now();
    try {
      const { browser, plan } = await this.launchSandboxedIfPossible(found.path, launchId);
      this.lastLaunchError = null;
      this.sandbox = plan.mode;
      getLogger().info(
        { launchId, ms: Math.round(performance.now() - started), chromium: found.path, sandbox: plan.mode },
        "Chromium launched",
      );
      return { launchId, browser };
    } catch (err) {
      this.lastLaunchError = `Chromium failed to start (${found.path}): ${(err as Error).message.split("\n")[0]}`;
      throw new Error(this.lastLaunchError, { cause: err });
    }
  }

  /**
   * Sandboxed when the host allows it; --no-sandbox (remembered and logged, `noteFallback`) only when that alone works.
   */
  private async launchSandboxedIfPossible(
    chromiumPath: string,
    launchId: string,
  ): Promise<{ browser: Browser; plan: LaunchPlan }> {
    const sandboxed =
      this.sandboxFallback === null ? sandboxedPlan(chromiumPath) : { unavailable: this.sandboxFallback };
    let reason: string;
    if ("unavailable" in sandboxed) {
      reason = sandboxed.unavailable;
    } else {
      try {
        return { browser: await this.launchWith(sandboxed, launchId), plan: sandboxed };
      } catch (err) {
        // A host without user namespaces (some containers): the sandbox cannot start, Chromium may.
        killLaunch(launchId);
        reason = `Chromium did not start with its sandbox: ${(err as Error).message.split("\n")[0]}`;
      }
    }
    const plan = unsandboxedPlan(chromiumPath);
    const browser = await this.launchWith(plan, launchId);
    this.noteFallback(reason);
    return { browser, plan };
  }

  private launchWith(plan: LaunchPlan, launchId: string): Promise<Browser> {
    return chromium.launch({
      executablePath: plan.executablePath,
      chromiumSandbox: plan.chromiumSandbox,
      env: childProcessEnvironment(),
      // CDP_PORT_FLAGS: a loopback DevTools port for sessions' CDP relays (see cdp-target), only when offered.
      ignoreDefaultArgs: [PLAYWRIGHT_DISABLE_FEATURES_FLAG],
      args: [...CHROMIUM_FLAGS, ...(cdpEnabled() ? CDP_PORT_FLAGS : []), launchMarker(launchId)],
      // Our shutdown hook ends sessions (saving state) first, then closes browsers.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  }

  /** Remembered, so later launches go straight to the fallback; logged once, as the operator should know. */
  private noteFallback(reason: string) {
    if (this.sandboxFallback === reason) return;
    this.sandboxFallback = reason;
    getLogger().warn({ reason }, "Chromium runs without its sandbox (--no-sandbox)");
  }
}
