// Per-account login backoff (docs/security.md "Logins"): failed sign-ins slow down
// exponentially per (account, client address). Keying on the pair, not the
// account alone, is what keeps an attacker from locking the owner out: the
// attacker's failures delay only the attacker's address, and the owner signing
// in from anywhere else is not delayed at all. The per-address limit
// (AUTH_RATE_LIMIT_PER_MINUTE, Better Auth's) still caps each address overall.
// Counters live in this process's memory, like Better Auth's.

export interface BackoffSettings {
  /** Failures allowed before any delay. */
  freeFailures: number;
  baseMs: number;
  maxMs: number;
}

interface Entry {
  failures: number;
  /** Attempts of this pair being checked right now (they count as failures until they answer). */
  inFlight: number;
  nextAt: number;
  lastFailureAt: number;
}

const MAX_ENTRIES = 100_000;

export class LoginBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly settings: () => BackoffSettings) {}

  /** Milliseconds until this pair may try again (0: go ahead; the attempt is then in flight until `finish`). */
  begin(key: string, now = Date.now()): number {
    const { freeFailures, maxMs } = this.settings();
    let entry = this.entries.get(key);
    // Failures an hour (or two maximum delays) old are forgiven.
    if (entry && entry.inFlight === 0 && now - entry.lastFailureAt > Math.max(3_600_000, 2 * maxMs)) {
      this.entries.delete(key);
      entry = undefined;
    }
    if (entry && entry.failures + entry.inFlight >= freeFailures) {
      if (now < entry.nextAt) return entry.nextAt - now;
      // Past the free failures, one attempt at a time: parallel guesses cannot share a window.
      if (entry.inFlight > 0) return this.settings().baseMs;
    }
    if (!entry) {
      this.makeRoom(now);
      entry = { failures: 0, inFlight: 0, nextAt: 0, lastFailureAt: now };
      this.entries.set(key, entry);
    }
    entry.inFlight++;
    return 0;
  }

  /** The answer of an attempt `begin` let through: a wrong password, a sign-in, or neither (a refusal for another reason). */
  finish(key: string, outcome: "failed" | "succeeded" | "other", now = Date.now()): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (outcome === "succeeded") {
      this.entries.delete(key);
    } else if (outcome === "failed") {
      const { freeFailures, baseMs, maxMs } = this.settings();
      entry.failures++;
      entry.lastFailureAt = now;
      if (entry.failures >= freeFailures)
        entry.nextAt = now + Math.min(maxMs, baseMs * 2 ** Math.min(30, entry.failures - freeFailures));
    } else if (entry.failures === 0 && entry.inFlight === 0) {
      this.entries.delete(key);
    }
  }

  /** Bounded memory whatever an attacker sends: forgiven entries go first, then the oldest. */
  private makeRoom(now: number) {
    if (this.entries.size < MAX_ENTRIES) return;
    for (const [key, entry] of this.entries) {
      if (entry.inFlight === 0 && now >= entry.nextAt) this.entries.delete(key);
    }
    while (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}
