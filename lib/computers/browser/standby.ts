// The BrowserPool's standby contexts: blank contexts with their first page already
// open, handed to new sessions so a create skips the ~40 ms first page. Their
// number follows recent demand (standbyTarget); they are made in the background,
// at most BROWSER_STANDBY_REFILL_CONCURRENCY at a time, in the background lane of the
// node's start queue (StartAdmission.runInBackground), so refills never hold up a create
// nor start beside one: a create that finds standby empty makes its own context at once.
//
// The pool keeps one StandbyContexts per owner (Slot.owner): the spare browser's, with the
// operator's floor, and one per organization with a browser, made in that browser (sessions
// of different organizations never share a Chromium), whose floor is 0 so an idle
// organization holds no standby once its busy minute has passed.
import os from "node:os";
import type { BrowserContext, Page } from "playwright-core";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { usable, type Slot } from "@/lib/computers/browser/slot";
import { StandbyDemand, standbyTarget } from "@/lib/computers/browser/standby-demand";
import { newSessionContext } from "@/lib/computers/browser/egress-context";
import { nodeStartAdmission } from "@/lib/computers/sessions/start-admission";

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

export interface Standby {
  slot: Slot;
  context: BrowserContext;
  page: Page;
}

/** Still usable by a session of `owner`: its browser lives and its page is open. */
export function readyFor(s: Standby, owner: string): boolean {
  return usable(s.slot) && !s.page.isClosed() && s.slot.owner === owner;
}

// Measured PSS of one idle context with a blank page (sessions.md §1), with headroom.
const PER_CONTEXT_BYTES = 80 * 1024 * 1024;
const RETRY_MS = 5_000;
// Demand decays: extra standby contexts are closed once the busy minute has passed.
const TRIM_EVERY_MS = 5_000;

export interface StandbyOwner {
  /** Slot.owner of the browsers it makes contexts in (null: the spare). */
  owner: string | null;
  /** The fewest kept whatever the demand. */
  floor: () => number;
  /** Runs `make` on a browser of `owner` with room (the pool's BrowserPool.withSlot, which may launch one). */
  withSlot: <T>(make: (slot: Slot) => Promise<T>) => Promise<T>;
}

export class StandbyContexts {
  private ready: Standby[] = [];
  private readonly making = new Set<Promise<void>>();
  private readonly demand = new StandbyDemand();
  private stopped = false;
  private retryAt = 0;
  /** Trims (and retries) while demand decays; started by the first refill, so an unused pool runs no timer. */
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly of: StandbyOwner) {}

  get size(): number {
    return this.ready.length;
  }

  /** The target for the demand seen now (also reported by health). */
  target(): number {
    const env = getEnv();
    return standbyTarget({
      min: this.of.floor(),
      max: env.BROWSER_STANDBY_MAX_CONTEXTS,
      largestBurst: this.demand.largestBurst(),
      current: this.ready.length + this.making.size,
      freeBytes: os.freemem(),
      reserveBytes: env.BROWSER_STANDBY_MIN_FREE_MB * 1024 * 1024,
      perContextBytes: PER_CONTEXT_BYTES,
    });
  }

  /** Boot: make the initial standby and wait for it. */
  async fill(): Promise<void> {
    this.refill();
    while (this.making.size) await Promise.all([...this.making]);
  }

  /**
   * A create that could use a standby context: counted as demand (once per create); a ready context if there is one.
   */
  take(countAsDemand = true): Standby | undefined {
    if (countAsDemand) this.demand.record();
    let found: Standby | undefined;
    while (!found && this.ready.length) {
      const s = this.ready.shift()!;
      if (usable(s.slot) && !s.page.isClosed()) found = s;
      else void s.context.close().catch(() => {});
    }
    this.refill();
    return found;
  }

  holds(slot: Slot): boolean {
    return this.ready.some((s) => s.slot === slot);
  }

  /** The spare browser was claimed: its ready contexts go with it to the new owner's StandbyContexts (`adopt`). */
  handOver(slot: Slot): Standby[] {
    const moving = this.ready.filter((s) => s.slot === slot);
    this.ready = this.ready.filter((s) => s.slot !== slot);
    return moving;
  }

  adopt(moving: Standby[]): void {
    this.ready.push(...moving);
  }

  /** A retired, idle or dead process: its standby contexts can no longer be handed out. */
  dropSlot(slot: Slot, close: boolean): void {
    this.ready = this.ready.filter((s) => {
      if (s.slot !== slot) return true;
      if (close) void s.context.close().catch(() => {});
      return false;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.making]);
    this.ready = [];
  }

  /** Starts makers up to the target and the concurrency bound; closes what is above the target. */
  refill(): void {
    if (this.stopped) return;
    if (!this.timer) (this.timer = setInterval(() => this.refill(), TRIM_EVERY_MS)).unref();
    if (Date.now() < this.retryAt) return;
    const target = this.target();
    const limit = getEnv().BROWSER_STANDBY_REFILL_CONCURRENCY;
    while (this.ready.length + this.making.size < target && this.making.size < limit) {
      const run: Promise<void> = this.makeOne().finally(() => {
        this.making.delete(run);
        this.refill();
      });
      this.making.add(run);
    }
    // Newest last: the oldest contexts go first when demand falls.
    while (this.ready.length > target)
      void this.ready
        .shift()!
        .context.close()
        .catch(() => {});
  }

  private async makeOne(): Promise<void> {
    let context: BrowserContext | null = null;
    try {
      // The browser first (a launch may take a while, or hang until Playwright gives up on a Chromium killed
      // mid-launch): only the context's start takes a start slot, so a refill never holds one while it waits.
      await this.of.withSlot((slot) =>
        nodeStartAdmission().runInBackground(async () => {
          if (this.stopped || !usable(slot)) return; // stopped, or its browser died, while it waited
          context = await newSessionContext(slot.browser, { viewport: DEFAULT_VIEWPORT });
          const page = await context.newPage();
          // Claimed meanwhile (the spare went to an organization): this context is no longer ours to hand out.
          if (this.stopped || !usable(slot) || slot.owner !== this.of.owner) {
            await context.close().catch(() => {});
            return;
          }
          this.ready.push({ slot, context, page });
        }),
      );
    } catch (err) {
      await (context as BrowserContext | null)?.close().catch(() => {});
      if (this.stopped) return;
      getLogger().warn({ err }, `could not make a standby browser context; retrying in ${RETRY_MS / 1000} s`);
      this.retryAt = Date.now() + RETRY_MS;
      setTimeout(() => this.refill(), RETRY_MS).unref();
    }
  }
}
