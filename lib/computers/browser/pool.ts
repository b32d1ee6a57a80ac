// The browser pool: long-lived Chromium processes, one BrowserContext per session (~13 MiB each,
// against ~64 MiB for a browser with one session), plus standby contexts with a blank page already
// open (StandbyContexts, sized from demand), because a context's first page costs ~40 ms and creating
// a session must not. A create that fits a standby context (standby-reservation.ts) has one set aside
// before it asks for a start slot; others get a fresh context (proxy, device scale, saved state).
//
// Sessions of different organizations never share a Chromium process (docs/security.md "Sessions
// apart": a renderer exploit must not reach another customer's pages through the browser process).
// Each Slot has an owner; the spare (owner null) holds the standby, and the first create of an
// organization without a browser claims it, standby included, while a new spare starts behind it.
// An organization's browser closes BROWSER_ORG_IDLE_SECONDS after its last session. A process is
// retired after BROWSER_RECYCLE_AFTER_CONTEXTS sessions (it takes no new ones and closes with its
// last), and its sessions are told when it crashes.
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { getLogger } from "@/lib/logger";
import { killLaunch, killMarked, processTreeCount, reapOrphanProfiles } from "@/lib/computers/browser/processes";
import { closeQuietly, usable, type Slot } from "@/lib/computers/browser/slot";
import { DEFAULT_VIEWPORT, readyFor, type Standby } from "@/lib/computers/browser/standby";
import { StandbyByOwner } from "@/lib/computers/browser/standby-owners";
import { newSessionContext } from "@/lib/computers/browser/egress-context";
import { ChromiumLauncher } from "@/lib/computers/browser/launcher";
import { getEnv } from "@/lib/env";

export { DEFAULT_VIEWPORT };
export type { Slot };

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
  private readonly launcher = new ChromiumLauncher();
  private readonly standby = new StandbyByOwner((owner, make) => this.withSlot(owner, make));
  /** Launches in progress, by the owner they are for (null: a new spare). */
  private readonly launching = new Map<string | null, Promise<Slot>>();
  private stopped = false;
  private profileReaper: NodeJS.Timeout | null = null;

  get lastLaunchError(): string | null {
    return this.launcher.lastLaunchError;
  }

  get sandboxFallback(): string | null {
    return this.launcher.sandboxFallback;
  }

  private get settings() {
    const env = getEnv();
    return {
      maxPerProcess: env.BROWSER_MAX_CONTEXTS_PER_PROCESS,
      recycleAfter: env.BROWSER_RECYCLE_AFTER_CONTEXTS,
      idleMs: env.BROWSER_ORG_IDLE_SECONDS * 1000,
    };
  }

  /** Boot: reap a previous process's browsers, launch the spare, fill its standby. */
  async warm(): Promise<void> {
    const reaped = killMarked();
    if (reaped) getLogger().warn({ reaped }, "killed Chromium processes left by a previous server process");
    await this.slotWithRoom(null);
    // After a launch: the browsers killed above are gone by now, and so is their claim on a profile.
    this.reapProfiles();
    // A killed server's Chromium children can outlive this first look (they exit when
    // their pipe closes, late on a loaded host) and keep their profile claimed: look again.
    this.profileReaper = setInterval(() => this.reapProfiles(), PROFILE_REAP_INTERVAL_MS).unref();
    await this.standby.of(null).fill();
  }

  /** A context (and first page) for a session of `owner`, in a browser only it uses: `ready` (reserved by takeStandby) if still usable. */
  async acquire(options: BrowserContextOptions, owner: string, ready?: Standby): Promise<Lease> {
    if (this.stopped) throw new Error("The browser pool is shut down");
    if (ready && readyFor(ready, owner)) {
      this.hold(ready.slot, ready.context);
      return { ...ready, fromStandby: true };
    }
    if (ready) void ready.context.close().catch(() => {});
    return this.withSlot(owner, async (slot) => {
      let context: BrowserContext | null = null;
      try {
        context = await newSessionContext(slot.browser, options);
        this.hold(slot, context);
        const page = await context.newPage();
        return { slot, context, page, fromStandby: false };
      } catch (err) {
        if (context) slot.sessions.delete(context);
        await context?.close().catch(() => {});
        throw err;
      }
    });
  }

  /** A reserved context a create did not use: ready again for the next one, if its browser still can. */
  giveBack(ready: Standby): void {
    this.standby.giveBack(ready, !this.stopped);
  }

  /** Sets a ready context of `owner`'s aside for one create; without a browser with room it first claims the spare, standby and all. */
  takeStandby(owner: string, countAsDemand = true): Standby | undefined {
    if (this.stopped) return undefined;
    if (!this.slots.some((s) => s.owner === owner && this.hasRoom(s))) this.claimSpare(owner);
    return this.standby.of(owner).take(countAsDemand);
  }

  /** Counts a context as a session of its slot before anything can retire and close that slot. */
  private hold(slot: Slot, context: BrowserContext) {
    this.keepOpen(slot);
    slot.sessions.set(context, () => {});
    slot.handedOut++;
    if (slot.handedOut >= this.settings.recycleAfter && !slot.retired) this.retire(slot);
  }

  /** Registers the callback run if the slot's browser dies while `context` is live. */
  watch(lease: Lease, onCrash: () => void): void {
    lease.slot.sessions.set(lease.context, onCrash);
  }

  /** Closes a session's context; the slot closes too when it is retired and empty, or idle for BROWSER_ORG_IDLE_SECONDS. */
  async release(lease: Lease): Promise<void> {
    lease.slot.sessions.delete(lease.context);
    await closeQuietly(lease.context.close());
    this.afterRelease(lease.slot);
  }

  private reapProfiles(): void {
    const profiles = reapOrphanProfiles();
    if (profiles)
      getLogger().warn({ profiles }, "removed Chromium profiles left in the temp folder by a previous server process");
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
      /** Browsers that belong to an organization (the rest are spares). */
      organization_browsers: live.filter((s) => s.owner !== null).length,
      contexts,
      session_contexts: live.reduce((n, s) => n + s.sessions.size, 0),
      standby_contexts: this.standby.size,
      standby_floor: getEnv().BROWSER_STANDBY_CONTEXTS,
      standby_target: this.standby.target(),
      pages,
      chromium_processes: processTreeCount(),
      sandbox: this.launcher.sandbox,
    };
  }

  private hasRoom(slot: Slot): boolean {
    return usable(slot) && slot.browser.contexts().length < this.settings.maxPerProcess;
  }

  /** Runs `make` on a browser of `owner` with room, which cannot close (idle) until `make` is done. */
  private async withSlot<T>(owner: string | null, make: (slot: Slot) => Promise<T>): Promise<T> {
    const slot = await this.slotWithRoom(owner);
    this.keepOpen(slot);
    slot.opening++;
    try {
      return await make(slot);
    } finally {
      slot.opening--;
      this.afterRelease(slot);
    }
  }

  private async slotWithRoom(owner: string | null): Promise<Slot> {
    for (;;) {
      const slot = this.slots.find((s) => s.owner === owner && this.hasRoom(s));
      if (slot) return slot;
      if (owner !== null && this.claimSpare(owner)) continue;
      if (this.stopped) throw new Error("The browser pool is shut down");
      // A spare on its way (then claimed) is sooner than a launch of our own, and leaves the organization no second browser.
      let launch =
        (owner !== null && !this.launching.has(owner) && this.launching.get(null)) || this.launching.get(owner);
      if (!launch) {
        launch = this.launch(owner).finally(() => this.launching.delete(owner));
        this.launching.set(owner, launch);
      }
      await launch;
    }
  }

  /** The spare becomes `owner`'s browser, its ready standby contexts too; a new spare starts behind it. */
  private claimSpare(owner: string): boolean {
    const spare = this.slots.find((s) => s.owner === null && this.hasRoom(s));
    if (!spare) return false;
    spare.owner = owner;
    const spareStandby = this.standby.of(null);
    this.standby.of(owner).adopt(spareStandby.handOver(spare));
    this.keepSpare();
    return true;
  }

  private async launch(owner: string | null): Promise<Slot> {
    const { launchId, browser } = await this.launcher.launch();
    const slot: Slot = {
      launchId,
      browser,
      owner,
      handedOut: 0,
      sessions: new Map(),
      opening: 0,
      idleTimer: null,
      retired: false,
      closing: false,
    };
    browser.on("disconnected", () => this.onDisconnected(slot));
    this.slots.push(slot);
    if (this.stopped) void this.closeSlot(slot);
    return slot;
  }

  private retire(slot: Slot) {
    slot.retired = true;
    getLogger().info({ launchId: slot.launchId, handedOut: slot.handedOut }, "retiring Chromium process");
    this.standby.of(slot.owner).dropSlot(slot, true);
    this.afterRelease(slot);
    if (slot.owner === null) this.keepSpare();
    else this.standby.of(slot.owner).refill();
  }

  /** After a claim, retirement or crash: a spare with its standby ready before the next organization asks. */
  private keepSpare() {
    if (this.stopped) return;
    void this.slotWithRoom(null)
      .then(() => this.standby.of(null).refill())
      .catch((err) => getLogger().warn({ err }, "could not start a spare Chromium process"));
  }

  private keepOpen(slot: Slot) {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
  }

  private afterRelease(slot: Slot) {
    if (slot.closing || slot.sessions.size || slot.opening) return;
    if (slot.retired) {
      if (!this.standby.of(slot.owner).holds(slot)) void this.closeSlot(slot);
    } else if (slot.owner !== null && !slot.idleTimer) {
      slot.idleTimer = setTimeout(() => this.closeIdle(slot), this.settings.idleMs).unref();
    }
  }

  /** An organization's browser with no session for BROWSER_ORG_IDLE_SECONDS: closed, its standby with it. */
  private closeIdle(slot: Slot) {
    slot.idleTimer = null;
    if (slot.closing || slot.sessions.size || slot.opening || slot.owner === null) return;
    getLogger().info({ launchId: slot.launchId }, "closing an organization's idle Chromium process");
    this.standby.of(slot.owner).dropSlot(slot, false);
    void this.closeSlot(slot);
  }

  private async closeSlot(slot: Slot) {
    if (slot.closing) return;
    slot.closing = true;
    this.keepOpen(slot);
    this.slots = this.slots.filter((s) => s !== slot);
    this.forgetOwner(slot.owner);
    await closeQuietly(slot.browser.close());
    killLaunch(slot.launchId); // a hung browser
  }

  private forgetOwner(owner: string | null) {
    if (owner !== null && !this.slots.some((s) => s.owner === owner) && !this.launching.has(owner))
      this.standby.forget(owner);
  }

  private onDisconnected(slot: Slot) {
    if (slot.closing) return;
    slot.closing = true;
    this.keepOpen(slot);
    getLogger().error({ launchId: slot.launchId, sessions: slot.sessions.size }, "Chromium process died");
    this.slots = this.slots.filter((s) => s !== slot);
    this.standby.of(slot.owner).dropSlot(slot, false);
    this.forgetOwner(slot.owner);
    const crashed = [...slot.sessions.values()];
    slot.sessions.clear();
    for (const notify of crashed) notify();
    killLaunch(slot.launchId);
    if (slot.owner === null) this.keepSpare();
  }
}
