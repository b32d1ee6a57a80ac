// A standby context set aside for one create before it asks for a start slot
// (ComputerDriver.reserveWarm, docs/cluster.md "Start admission"): the context and its
// first page exist already, so the create only adopts it and takes no slot. Back-to-back
// creates are then served from the standby while its refill runs in the background,
// instead of each waiting behind the refill the previous one started.
import type { StartSpec, WarmReservation } from "@/lib/computers/driver";
import type { BrowserPool } from "@/lib/computers/browser/pool";
import type { Standby } from "@/lib/computers/browser/standby";

/** A standby context is made with the defaults: only the viewport can change afterwards. */
export function fitsStandby(spec: Pick<StartSpec, "proxy" | "restore" | "viewport">): boolean {
  return !spec.proxy && !spec.restore && spec.viewport.scale === 1;
}

export class StandbyReservation implements WarmReservation {
  private settled = false;

  constructor(
    private readonly pool: BrowserPool,
    private readonly ready: Standby,
  ) {}

  /** The start adopts the context: it is the session's from now on. */
  take(): Standby | undefined {
    if (this.settled) return undefined;
    this.settled = true;
    return this.ready;
  }

  release(): void {
    if (this.settled) return;
    this.settled = true;
    this.pool.giveBack(this.ready);
  }
}

/** The standby context reserved for this start, if any. */
export function takeReserved(spec: Pick<StartSpec, "warm">): Standby | undefined {
  return spec.warm instanceof StandbyReservation ? spec.warm.take() : undefined;
}

/** For `browserDriver.reserveWarm`: a ready context of the organization's, set aside. */
export function reserveStandby(
  pool: BrowserPool,
  spec: Pick<StartSpec, "proxy" | "restore" | "viewport" | "organizationId">,
): StandbyReservation | null {
  if (!fitsStandby(spec)) return null;
  const ready = pool.takeStandby(spec.organizationId);
  return ready ? new StandbyReservation(pool, ready) : null;
}
