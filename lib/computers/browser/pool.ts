// The browser pool: a few long-lived Chromium processes, one BrowserContext per
// session (~63 MiB each, against ~390 MiB for a browser per session), plus standby
// contexts with a blank page already open (StandbyContexts, sized from demand),
// because a context's first page costs ~260 ms and creating a session must not.
// Standby contexts are handed out when a session's options can be applied after
// creation (viewport: yes; proxy, device scale, saved state: no → a fresh context).
//
// A process is retired after BROWSER_RECYCLE_AFTER_CONTEXTS sessions (it takes no
// new ones and closes with its last), and its sessions are told when it crashes.
import { randomBytes } from "node:crypto";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { getLogger } from "@/lib/logger";
import { chromiumHelp, findChromium } from "@/lib/computers/browser/find-chromium";
import { killLaunch, killMarked, launchMarker, processTreeCount, reapOrphanProfiles } from "@/lib/computers/browser/processes";
import { cdpEnabled } from "@/lib/computers/browser/cdp-enabled";
import { CDP_PORT_FLAGS } from "@/lib/computers/browser/cdp-target";
import { usable, type Slot } from "@/lib/computers/browser/slot";
import { DEFAULT_VIEWPORT, StandbyContexts } from "@/lib/computers/browser/standby";
import { newSessionContext } from "@/lib/computers/browser/egress-context";
import { sandboxedPlan, unsandboxedPlan, type LaunchPlan, type SandboxMode } from "@/lib/computers/browser/launch-user";
import { childProcessEnvironment, getEnv } from "@/lib/env";

export { DEFAULT_VIEWPORT };
export type { Slot };

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
];

const CLOSE_TIMEOUT_MS = 5_000;
/** How often orphaned Playwright profiles (of SIGKILLed servers on this host) are looked for: a readdir of the temp folder and of /proc. */
const PROFILE_REAP_INTERVAL_MS = 10_000;

export interface Lease {
  slot: Slot;
  context: BrowserContext;
  page: Page;
  /** True when it came from standby (then only the viewport may still differ). */
  fromStandby: boolean;
}

export class BrowserPool {
  private slots: Slot[] = [];
  private readonly standby = new StandbyContexts(() => this.slotWithRoom());
  private launching: Promise<Slot> | null = null;
  private stopped = false;
  private profileReaper: NodeJS.Timeout | null = null;
  lastLaunchError: string | null = null;
  /** How the last Chromium was launched; "off" with `sandboxFallback` saying why the sandbox was not used. */
  sandbox: SandboxMode | null = null;
  sandboxFallback: string | null = null;

  private get settings() {
    const env = getEnv();
    return {
      maxPerProcess: env.BROWSER_MAX_CONTEXTS_PER_PROCESS,
      recycleAfter: env.BROWSER_RECYCLE_AFTER_CONTEXTS,
    };
  }

  /** Boot: reap a previous process's browsers, launch one, fill the standby. */
  async warm(): Promise<void> {
    const reaped = killMarked();
    if (reaped) getLogger().warn({ reaped }, "killed Chromium processes left by a previous server process");
    await this.slotWithRoom();
    // After a launch: the browsers killed above are gone by now, and so is their claim on a profile.
    this.reapProfiles();
    // A killed server's Chromium children can outlive this first look (they exit when
    // their pipe closes, late on a loaded host) and keep their profile claimed: look again.
    this.profileReaper = setInterval(() => this.reapProfiles(), PROFILE_REAP_INTERVAL_MS).unref();
    await this.standby.fill();
  }

  /** A context (and its first page) for a new session. */
  async acquire(options: BrowserContextOptions, canUseStandby: boolean): Promise<Lease> {
    if (this.stopped) throw new Error("The browser pool is shut down");
    if (canUseStandby) {
      const ready = this.standby.take();
      if (ready) {
        this.hold(ready.slot, ready.context);
        return { ...ready, fromStandby: true };
      }
    }
    const slot = await this.slotWithRoom();
    let context: BrowserContext | null = null;
    try {
      context = await newSessionContext(slot.browser, options);
      this.hold(slot, context);
      const page = await context.newPage();
      return { slot, context, page, fromStandby: false };
    } catch (err) {
      if (context) slot.sessions.delete(context);
      await context?.close().catch(() => {});
      this.afterRelease(slot);
      throw err;
    }
  }

  /** Counts a context as a session of its slot before anything can retire and close that slot. */
  private hold(slot: Slot, context: BrowserContext) {
    slot.sessions.set(context, () => {});
    slot.handedOut++;
    if (slot.handedOut >= this.settings.recycleAfter && !slot.retired) this.retire(slot);
  }

  /** Registers the callback run if the slot's browser dies while `context` is live. */
  watch(lease: Lease, onCrash: () => void): void {
    lease.slot.sessions.set(lease.context, onCrash);
  }

  /** Closes a session's context; the slot closes too when it is retired and empty. */
  async release(lease: Lease): Promise<void> {
    lease.slot.sessions.delete(lease.context);
    await withTimeout(lease.context.close(), CLOSE_TIMEOUT_MS).catch(() => {});
    this.afterRelease(lease.slot);
  }

  private reapProfiles(): void {
    const profiles = reapOrphanProfiles();
    if (profiles) getLogger().warn({ profiles }, "removed Chromium profiles left in the temp folder by a previous server process");
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.profileReaper) clearInterval(this.profileReaper);
    await this.standby.stop();
    const slots = [...this.slots];
    this.slots = [];
    await Promise.all(slots.map((s) => this.closeSlot(s)));
    killMarked();
  }

  stats() {
    const live = this.slots.filter((s) => s.browser.isConnected());
    const contexts = live.reduce((n, s) => n + s.browser.contexts().length, 0);
    const pages = live.reduce((n, s) => n + s.browser.contexts().reduce((m, c) => m + c.pages().length, 0), 0);
    return {
      browsers: live.length,
      contexts,
      session_contexts: live.reduce((n, s) => n + s.sessions.size, 0),
      standby_contexts: this.standby.size,
      standby_floor: getEnv().BROWSER_STANDBY_CONTEXTS,
      standby_target: this.standby.target(),
      pages,
      chromium_processes: processTreeCount(),
      sandbox: this.sandbox,
    };
  }

  private hasRoom(slot: Slot): boolean {
    return usable(slot) && slot.browser.contexts().length < this.settings.maxPerProcess;
  }

  private async slotWithRoom(): Promise<Slot> {
    for (;;) {
      const slot = this.slots.find((s) => this.hasRoom(s));
      if (slot) return slot;
      if (this.stopped) throw new Error("The browser pool is shut down");
      this.launching ??= this.launch().finally(() => (this.launching = null));
      await this.launching;
    }
  }

  private async launch(): Promise<Slot> {
    const found = findChromium();
    if (!found) {
      this.lastLaunchError = chromiumHelp();
      throw new Error(this.lastLaunchError);
    }
    const launchId = randomBytes(4).toString("hex");
    const started = performance.now();
    try {
      const { browser, plan } = await this.launchSandboxedIfPossible(found.path, launchId);
      const slot: Slot = { launchId, browser, handedOut: 0, sessions: new Map(), retired: false, closing: false };
      browser.on("disconnected", () => this.onDisconnected(slot));
      this.slots.push(slot);
      this.lastLaunchError = null;
      this.sandbox = plan.mode;
      getLogger().info({ launchId, ms: Math.round(performance.now() - started), chromium: found.path, sandbox: plan.mode }, "Chromium launched");
      return slot;
    } catch (err) {
      this.lastLaunchError = `Chromium failed to start (${found.path}): ${(err as Error).message.split("\n")[0]}`;
      throw new Error(this.lastLaunchError, { cause: err });
    }
  }

  /** Sandboxed when the host allows it; --no-sandbox (remembered and logged, `noteFallback`) only when that alone works. */
  private async launchSandboxedIfPossible(chromiumPath: string, launchId: string): Promise<{ browser: Browser; plan: LaunchPlan }> {
    const sandboxed = this.sandboxFallback === null ? sandboxedPlan(chromiumPath) : { unavailable: this.sandboxFallback };
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

  private retire(slot: Slot) {
    slot.retired = true;
    getLogger().info({ launchId: slot.launchId, handedOut: slot.handedOut }, "retiring Chromium process");
    this.standby.dropSlot(slot, true);
    this.afterRelease(slot);
    this.keepWarm();
  }

  /** After a retirement or crash: a browser with room ready before the next session asks. */
  private keepWarm() {
    if (this.stopped) return;
    void this.slotWithRoom()
      .then(() => this.standby.refill())
      .catch((err) => getLogger().warn({ err }, "could not start a replacement Chromium process"));
  }

  private afterRelease(slot: Slot) {
    if (slot.retired && slot.sessions.size === 0 && !this.standby.holds(slot)) {
      void this.closeSlot(slot);
    }
  }

  private async closeSlot(slot: Slot) {
    if (slot.closing) return;
    slot.closing = true;
    this.slots = this.slots.filter((s) => s !== slot);
    await withTimeout(slot.browser.close(), CLOSE_TIMEOUT_MS).catch(() => {});
    killLaunch(slot.launchId); // a hung browser
  }

  private onDisconnected(slot: Slot) {
    if (slot.closing) return;
    slot.closing = true;
    getLogger().error({ launchId: slot.launchId, sessions: slot.sessions.size }, "Chromium process died");
    this.slots = this.slots.filter((s) => s !== slot);
    this.standby.dropSlot(slot, false);
    const crashed = [...slot.sessions.values()];
    slot.sessions.clear();
    for (const notify of crashed) notify();
    killLaunch(slot.launchId);
    this.keepWarm();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timed out")), ms).unref()),
  ]);
}
