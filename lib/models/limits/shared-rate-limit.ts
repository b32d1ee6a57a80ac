// Rate limits shared by every process on one database (PostgreSQL): the same
// per-minute token buckets as the per-process RateLimiter, but stored in the
// database (`RateBucketStore`), so two servers on one database share one budget.
// The hot path stays off the database: a process leases request units in
// slices (`leaseSize`: 1% of the limit, 1..100) and admits locally while its
// slice lasts; it leases the next slice in the background when a quarter is
// left, and gives back what it did not use at each lease (and after
// LEASE_TTL_MS idle), so the units it holds never outlive a moment of quiet.
// Tokens are debited locally and sent with the next lease, or within
// TOKEN_FLUSH_MS. Bounds: never more admitted than the limit; at most one
// unused slice per process held back from the others.
import { AppError } from "@/lib/api/errors";
import { formatReset, type RateLimits } from "@/lib/models/limits/rate-limit";

const MINUTE_MS = 60_000;
export const LEASE_TTL_MS = 2_000;
export const TOKEN_FLUSH_MS = 1_000;

export interface LeaseRequest {
  /** Request units wanted (granted as many as the bucket holds, up to this). */
  want: number;
  /** Unused units of the previous lease, back into the bucket. */
  giveBack: number;
  /** Tokens used by finished requests since the last lease. */
  tokens: number;
}

export interface BucketLevels {
  /** Request units granted by this lease. */
  granted: number;
  /** Levels after the lease (tokens may be negative). */
  requests: number;
  tokens: number;
}

/** The shared buckets: one atomic read-modify-write per lease (`pgRateBucketStore` in production). */
export interface RateBucketStore {
  lease(subject: string, limits: RateLimits, request: LeaseRequest): Promise<BucketLevels>;
}

/** Units leased at once: 1% of the per-minute limit, at least 1 (exact for tiny limits), at most 100. */
export function leaseSize(requestsPerMinute: number): number {
  return Math.max(1, Math.min(100, Math.floor(requestsPerMinute / 100)));
}

interface SubjectState {
  leased: number;
  used: number;
  leasedAt: number;
  /** Levels the database answered at `seenAt` (local clock), refilled locally since. */
  requests: number;
  tokens: number;
  seenAt: number;
  pendingTokens: number;
  syncing: Promise<number> | null;
  flushTimer: NodeJS.Timeout | null;
}

export interface SharedRateLimiterLog {
  warn(details: object, message: string): void;
}

export class SharedRateLimiter {
  private readonly subjects = new Map<string, SubjectState>();
  private readonly slice: number;

  /** `subject` names what one id stands for in refusals ("organization", "API key"). */
  constructor(
    private readonly limits: RateLimits,
    private readonly store: RateBucketStore,
    private readonly log: SharedRateLimiterLog,
    private readonly clock: () => number = Date.now,
    private readonly subject = "organization",
  ) {
    this.slice = leaseSize(limits.requestsPerMinute);
  }

  private state(id: string): SubjectState {
    let s = this.subjects.get(id);
    if (!s) {
      const { requestsPerMinute, tokensPerMinute } = this.limits;
      s = {
        leased: 0,
        used: 0,
        leasedAt: 0,
        requests: requestsPerMinute,
        tokens: tokensPerMinute,
        seenAt: this.clock(),
        pendingTokens: 0,
        syncing: null,
        flushTimer: null,
      };
      this.subjects.set(id, s);
    }
    return s;
  }

  /** The bucket levels now as this process knows them: the last answer refilled since, minus local debits. */
  private levels(s: SubjectState, now: number) {
    const { requestsPerMinute: rpm, tokensPerMinute: tpm } = this.limits;
    const elapsed = now - s.seenAt;
    return {
      requests: Math.min(rpm, s.requests + (elapsed * rpm) / MINUTE_MS) + (s.leased - s.used),
      tokens: Math.min(tpm, s.tokens + (elapsed * tpm) / MINUTE_MS) - s.pendingTokens,
    };
  }

  /**
   * One lease round trip, shared by concurrent callers; resolves to the units it granted.
   * `giveBack`: return the unused units of the slice held (it expired or is being replaced); a
   * lease taken ahead of need keeps them usable meanwhile.
   */
  private sync(id: string, s: SubjectState, want: number, giveBack: boolean): Promise<number> {
    if (s.syncing) return s.syncing;
    if (s.flushTimer) clearTimeout(s.flushTimer);
    s.flushTimer = null;
    const back = giveBack ? s.leased - s.used : 0;
    if (giveBack) s.leased = s.used = 0;
    const tokens = s.pendingTokens;
    s.pendingTokens = 0;
    s.syncing = this.store.lease(id, this.limits, { want, giveBack: back, tokens }).then(
      (answer) => {
        s.syncing = null;
        s.leased += answer.granted;
        s.leasedAt = s.seenAt = this.clock();
        s.requests = answer.requests;
        s.tokens = answer.tokens;
        return answer.granted;
      },
      (err) => {
        s.syncing = null;
        // Nothing was written: the tokens are owed still; given-back units are lost to this process only.
        s.pendingTokens += tokens;
        throw err;
      },
    );
    return s.syncing;
  }

  private refuse(id: string, waitMs: number, which: string): AppError {
    return new AppError(
      "rate_limited",
      `Rate limit reached for this ${this.subject}: ${which} per minute. Retry in ${formatReset(waitMs)}.`,
      {
        detail: "rate_limit_exceeded",
        headers: {
          ...this.headers(id),
          "retry-after": String(Math.max(1, Math.ceil(waitMs / 1000))),
          "retry-after-ms": String(waitMs),
        },
      },
    );
  }

  /** The 429 for a spent token bucket, or null. */
  private tokenRefusal(id: string, s: SubjectState): AppError | null {
    const tpm = this.limits.tokensPerMinute;
    if (tpm <= 0) return null;
    const level = this.levels(s, this.clock()).tokens;
    if (level > 0) return null;
    return this.refuse(id, Math.max(1, Math.ceil(((Number.MIN_VALUE - level) * MINUTE_MS) / tpm)), `${tpm} tokens`);
  }

  /**
   * Takes one request unit, or answers the 429 without taking any. Waits on the database only when the slice is spent.
   */
  reserve(id: string): AppError | null | Promise<AppError | null> {
    const s = this.state(id);
    const tokens = this.tokenRefusal(id, s);
    if (tokens) return tokens;
    if (this.limits.requestsPerMinute <= 0) return null;
    const now = this.clock();
    if (s.used < s.leased && now - s.leasedAt < LEASE_TTL_MS) {
      s.used++;
      // A quarter of the slice left: lease the next one before anyone waits for it.
      if (s.leased - s.used <= this.slice / 4 && !s.syncing && this.slice > 1) this.background(id, s);
      return null;
    }
    return this.reserveAfterLease(id, s);
  }

  private async reserveAfterLease(id: string, s: SubjectState): Promise<AppError | null> {
    for (;;) {
      const granted = await this.sync(id, s, this.slice, true);
      // The answer carries the other processes' token spend too.
      const tokens = this.tokenRefusal(id, s);
      if (tokens) return tokens;
      if (s.used < s.leased) {
        s.used++;
        return null;
      }
      // Others took what this lease got: lease again, unless the bucket had nothing.
      if (granted === 0) {
        const rpm = this.limits.requestsPerMinute;
        const wait = Math.max(1, Math.ceil(((1 - s.requests) * MINUTE_MS) / rpm));
        return this.refuse(id, wait, `${rpm} requests`);
      }
    }
  }

  private background(id: string, s: SubjectState, want = this.slice): void {
    this.sync(id, s, want, false).catch((err) =>
      this.log.warn({ err, subject: this.subject, id }, "rate-limit lease failed; leasing again on the next request"),
    );
  }

  /** Gives back a reserved unit (another limit refused the request). */
  release(id: string): void {
    const s = this.state(id);
    if (s.used > 0) s.used--;
  }

  /** Debits what a finished request really used; sent with the next lease or within TOKEN_FLUSH_MS. */
  debitTokens(id: string, count: number): void {
    if (count <= 0 || this.limits.tokensPerMinute <= 0) return;
    const s = this.state(id);
    s.pendingTokens += count;
    if (!s.flushTimer && !s.syncing) {
      s.flushTimer = setTimeout(() => {
        s.flushTimer = null;
        if (s.pendingTokens > 0) this.background(id, s, 0);
      }, TOKEN_FLUSH_MS);
      s.flushTimer.unref?.();
    }
  }

  /** The x-ratelimit-* headers as this process knows the shared buckets. */
  headers(id: string): Record<string, string> {
    const { requestsPerMinute: rpm, tokensPerMinute: tpm } = this.limits;
    const now = this.clock();
    const level = this.levels(this.state(id), now);
    const out: Record<string, string> = {};
    if (rpm > 0) {
      out["x-ratelimit-limit-requests"] = String(rpm);
      out["x-ratelimit-remaining-requests"] = String(Math.max(0, Math.floor(level.requests)));
      out["x-ratelimit-reset-requests"] = formatReset(
        Math.max(0, Math.ceil(((rpm - level.requests) * MINUTE_MS) / rpm)),
      );
    }
    if (tpm > 0) {
      out["x-ratelimit-limit-tokens"] = String(tpm);
      out["x-ratelimit-remaining-tokens"] = String(Math.max(0, Math.floor(level.tokens)));
      out["x-ratelimit-reset-tokens"] = formatReset(Math.max(0, Math.ceil(((tpm - level.tokens) * MINUTE_MS) / tpm)));
    }
    return out;
  }
}
