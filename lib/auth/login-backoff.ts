// Per-account login backoff (docs/security.md "Logins"): failed sign-ins slow down
// exponentially per (account, client address). Keying on the pair, not the
// account alone, is what keeps an attacker from locking the owner out: the
// attacker's failures delay only the attacker's address, and the owner signing
// in from anywhere else is not delayed at all. The per-address limit
// (AUTH_RATE_LIMIT_PER_MINUTE, Better Auth's) still caps each address overall.
// The rules are pure functions of one pair's entry (decideBegin, decideFinish):
// LoginBackoff keeps the entries in this process's memory (SQLite, one node);
// pgLoginBackoffStore (login-backoff-shared.ts) keeps them in PostgreSQL rows,
// so every node of a cluster counts the same failures (docs/scale-out.md).

export interface BackoffSettings {
  /** Failures allowed before any delay. */
  freeFailures: number;
  baseMs: number;
  maxMs: number;
}

export interface BackoffEntry {
  failures: number;
  /** Attempts of this pair being checked right now (they count as failures until they answer). */
  inFlight: number;
  /** When the latest attempt began (ms): in-flight attempts older than IN_FLIGHT_STALE_MS are forgotten. */
  inFlightSince: number;
  nextAt: number;
  lastFailureAt: number;
}

export type LoginOutcome = "failed" | "succeeded" | "other";

/** Where entries live: this process's memory, or PostgreSQL rows shared by every node. */
export interface LoginBackoffStore {
  /** Milliseconds until this pair may try again (0: go ahead; the attempt is then in flight until `finish`). */
  begin(key: string): number | Promise<number>;
  /** The answer of an attempt `begin` let through. */
  finish(key: string, outcome: LoginOutcome): void | Promise<void>;
}

/**
 * An attempt still "in flight" after this long never got its answer (its node
 * stopped mid-request): it no longer holds the pair's next attempt back.
 */
export const IN_FLIGHT_STALE_MS = 60_000;

/** Failures this old (or two maximum delays) are forgiven. */
export const forgiveAfterMs = (settings: BackoffSettings) => Math.max(3_600_000, 2 * settings.maxMs);

/** The wait for a new attempt and the entry to keep (null: forget the pair). */
export function decideBegin(
  current: BackoffEntry | undefined,
  now: number,
  settings: BackoffSettings,
): { waitMs: number; entry: BackoffEntry } {
  let entry = current ? { ...current } : undefined;
  if (entry && entry.inFlight > 0 && now - entry.inFlightSince > IN_FLIGHT_STALE_MS) entry.inFlight = 0;
  if (entry && entry.inFlight === 0 && now - entry.lastFailureAt > forgiveAfterMs(settings)) entry = undefined;
  if (entry && entry.failures + entry.inFlight >= settings.freeFailures) {
    if (now < entry.nextAt) return { waitMs: entry.nextAt - now, entry };
    // Past the free failures, one attempt at a time: parallel guesses cannot share a window.
    if (entry.inFlight > 0) return { waitMs: settings.baseMs, entry };
  }
  entry ??= { failures: 0, inFlight: 0, inFlightSince: now, nextAt: 0, lastFailureAt: now };
  entry.inFlight++;
  entry.inFlightSince = now;
  return { waitMs: 0, entry };
}

/**
 * The entry after an attempt's answer: a wrong password, a sign-in, or neither (a refusal for another reason); null
 * forgets the pair.
 */
export function decideFinish(
  current: BackoffEntry,
  outcome: LoginOutcome,
  now: number,
  settings: BackoffSettings,
): BackoffEntry | null {
  const entry = { ...current, inFlight: Math.max(0, current.inFlight - 1) };
  if (outcome === "succeeded") return null;
  if (outcome === "failed") {
    const { freeFailures, baseMs, maxMs } = settings;
    entry.failures++;
    entry.lastFailureAt = now;
    if (entry.failures >= freeFailures)
      entry.nextAt = now + Math.min(maxMs, baseMs * 2 ** Math.min(30, entry.failures - freeFailures));
    return entry;
  }
  return entry.failures === 0 && entry.inFlight === 0 ? null : entry;
}

const MAX_ENTRIES = 100_000;

/** The entries in this process's memory (one node). */
export class LoginBackoff implements LoginBackoffStore {
  private readonly entries = new Map<string, BackoffEntry>();

  constructor(private readonly settings: () => BackoffSettings) {}

  begin(key: string, now = Date.now()): number {
    const existing = this.entries.get(key);
    const { waitMs, entry } = decideBegin(existing, now, this.settings());
    if (!existing) this.makeRoom(now);
    this.entries.set(key, entry);
    return waitMs;
  }

  finish(key: string, outcome: LoginOutcome, now = Date.now()): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const next = decideFinish(entry, outcome, now, this.settings());
    if (next) this.entries.set(key, next);
    else this.entries.delete(key);
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
