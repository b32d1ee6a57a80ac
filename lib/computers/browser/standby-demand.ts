// How many standby contexts to keep: sized from recent demand. A context's first
// page costs ~40 ms (a renderer process start) and ten made at once take ~0.3 s
// on two cores (bench:sessions' floor), so a burst is fast only if standby already holds as many contexts
// as the burst asks for. StandbyDemand remembers the creates of the last minute;
// its measure is the largest burst: the most creates within any BURST_MS. The
// background refill (2 at a time) keeps up with creates spread wider than that, so
// they are served by the refill, not by a bigger standby.
// standbyTarget keeps that many ready, between the operator's floor and ceiling,
// and never more than free memory allows.
const BURST_MS = 3_000;
// Enough for any demand the ceiling can answer; older creates fall out of the window anyway.
const MAX_REMEMBERED = 10_000;

export class StandbyDemand {
  /** Times of recent creates, oldest first. */
  private readonly times: number[] = [];

  constructor(
    private readonly windowMs = 60_000,
    private readonly burstMs = BURST_MS,
  ) {}

  /** One create that could have used (or did use) a standby context. */
  record(now = Date.now()): void {
    this.times.push(now);
    if (this.times.length > MAX_REMEMBERED) this.times.shift();
    this.forget(now);
  }

  /** The most creates within any `burstMs` of the window (0 when there were none). */
  largestBurst(now = Date.now()): number {
    this.forget(now);
    let peak = 0;
    for (let first = 0, last = 0; last < this.times.length; last++) {
      while (this.times[last] - this.times[first] >= this.burstMs) first++;
      peak = Math.max(peak, last - first + 1);
    }
    return peak;
  }

  private forget(now: number) {
    while (this.times.length && this.times[0] <= now - this.windowMs) this.times.shift();
  }
}

export interface TargetInput {
  /** BROWSER_STANDBY_CONTEXTS: always kept, whatever the demand. */
  min: number;
  /** BROWSER_STANDBY_MAX_CONTEXTS: never more, whatever the demand. */
  max: number;
  largestBurst: number;
  /** Standby contexts that exist or are being made (they already hold their memory). */
  current: number;
  freeBytes: number;
  /** BROWSER_STANDBY_MIN_FREE_MB: growth above `min` stops when free memory would fall below this. */
  reserveBytes: number;
  perContextBytes: number;
}

export function standbyTarget(input: TargetInput): number {
  const min = Math.min(input.min, input.max);
  const wanted = Math.max(min, Math.min(input.max, input.largestBurst));
  const affordable =
    input.current + Math.floor(Math.max(0, input.freeBytes - input.reserveBytes) / input.perContextBytes);
  return Math.max(min, Math.min(wanted, affordable));
}
