// The BrowserPool's StandbyContexts, one per owner: the spare browser's (key null), which
// keeps the operator's floor, and one per organization with a browser, whose floor is 0 so
// an organization that stopped creating sessions holds no standby once its busy minute
// has passed (StandbyDemand).
import { getEnv } from "@/lib/env";
import type { Slot } from "@/lib/computers/browser/slot";
import { readyFor, type Standby, StandbyContexts } from "@/lib/computers/browser/standby";

export class StandbyByOwner {
  private readonly byOwner = new Map<string | null, StandbyContexts>();

  /** `withSlot`: the pool's BrowserPool.withSlot, making contexts only in `owner`'s browsers. */
  constructor(private readonly withSlot: <T>(owner: string | null, make: (slot: Slot) => Promise<T>) => Promise<T>) {}

  of(owner: string | null): StandbyContexts {
    let standby = this.byOwner.get(owner);
    if (!standby) {
      standby = new StandbyContexts({
        owner,
        floor: () => (owner === null ? getEnv().BROWSER_STANDBY_CONTEXTS : 0),
        withSlot: (make) => this.withSlot(owner, make),
      });
      this.byOwner.set(owner, standby);
    }
    return standby;
  }

  /**
   * An organization with no browser left: its StandbyContexts (and trim timer) go; a make still running closes its
   * context.
   */
  forget(owner: string): void {
    const standby = this.byOwner.get(owner);
    this.byOwner.delete(owner);
    void standby?.stop();
  }

  /** A reserved context a create did not use: back to its owner's ready list (`keep`), else closed. */
  giveBack(ready: Standby, keep: boolean): void {
    const owner = ready.slot.owner;
    if (keep && owner !== null && readyFor(ready, owner)) this.of(owner).adopt([ready]);
    else void ready.context.close().catch(() => {});
  }

  get size(): number {
    return [...this.byOwner.values()].reduce((n, s) => n + s.size, 0);
  }

  target(): number {
    return [...this.byOwner.values()].reduce((n, s) => n + s.target(), 0);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.byOwner.values()].map((s) => s.stop()));
  }
}
