// Per-organization limits on the model API: requests per minute and tokens per
// minute, as token buckets that refill continuously. A request needs one
// request unit and a non-negative token balance; its real token count is
// debited when it ends (it is unknown before), so one large request can push
// the balance below zero and hold the next ones back until it refills.
// In memory, per process: several app hosts each enforce the limit on their own
// (on PostgreSQL, SharedRateLimiter shares the buckets through the database).
// One instance per subject: organizations (all their keys together) and API keys.
import { AppError } from "@/lib/api/errors";

export interface RateLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

const MINUTE_MS = 60_000;

class Bucket {
  private level: number;
  private updatedAt: number;

  constructor(
    readonly capacity: number,
    now: number,
  ) {
    this.level = capacity;
    this.updatedAt = now;
  }

  private get ratePerMs() {
    return this.capacity / MINUTE_MS;
  }

  current(now: number): number {
    this.level = Math.min(this.capacity, this.level + (now - this.updatedAt) * this.ratePerMs);
    this.updatedAt = now;
    return this.level;
  }

  take(amount: number, now: number) {
    this.current(now);
    this.level -= amount;
  }

  /** Milliseconds until the level reaches `target`. */
  msUntil(target: number, now: number): number {
    return Math.max(0, Math.ceil((target - this.current(now)) / this.ratePerMs));
  }
}

/** OpenAI-style durations: "120ms", "1.5s", "6m0s". */
export function formatReset(ms: number): string {
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  if (ms < MINUTE_MS) return `${Number((ms / 1000).toFixed(3))}s`;
  const minutes = Math.floor(ms / MINUTE_MS);
  return `${minutes}m${Math.ceil((ms - minutes * MINUTE_MS) / 1000)}s`;
}

interface OrgBuckets {
  requests?: Bucket;
  tokens?: Bucket;
}

/** What the /v1 layer needs of a limiter, per process (RateLimiter) or shared (SharedRateLimiter). */
export interface ModelRateLimiter {
  /** Takes one request unit, or answers the 429 without taking any. */
  reserve(id: string): AppError | null | Promise<AppError | null>;
  /** Gives back a reserved unit (another limit refused the request). */
  release(id: string): void;
  /** Debits what a finished request really used. */
  debitTokens(id: string, count: number): void;
  /** The x-ratelimit-* headers. */
  headers(id: string): Record<string, string>;
}

export class RateLimiter implements ModelRateLimiter {
  private readonly orgs = new Map<string, OrgBuckets>();

  /** `subject` names what one id stands for in refusals ("organization", "API key"). */
  constructor(
    private readonly limits: RateLimits,
    private readonly clock: () => number = Date.now,
    private readonly subject = "organization",
  ) {}

  private buckets(organizationId: string): OrgBuckets {
    let b = this.orgs.get(organizationId);
    if (!b) {
      const now = this.clock();
      b = {
        requests: this.limits.requestsPerMinute > 0 ? new Bucket(this.limits.requestsPerMinute, now) : undefined,
        tokens: this.limits.tokensPerMinute > 0 ? new Bucket(this.limits.tokensPerMinute, now) : undefined,
      };
      this.orgs.set(organizationId, b);
    }
    return b;
  }

  /** The x-ratelimit-* headers for an organization's current state. */
  headers(organizationId: string): Record<string, string> {
    const { requests, tokens } = this.buckets(organizationId);
    const now = this.clock();
    const out: Record<string, string> = {};
    if (requests) {
      out["x-ratelimit-limit-requests"] = String(requests.capacity);
      out["x-ratelimit-remaining-requests"] = String(Math.max(0, Math.floor(requests.current(now))));
      out["x-ratelimit-reset-requests"] = formatReset(requests.msUntil(requests.capacity, now));
    }
    if (tokens) {
      out["x-ratelimit-limit-tokens"] = String(tokens.capacity);
      out["x-ratelimit-remaining-tokens"] = String(Math.max(0, Math.floor(tokens.current(now))));
      out["x-ratelimit-reset-tokens"] = formatReset(tokens.msUntil(tokens.capacity, now));
    }
    return out;
  }

  /** Admits one request or throws a 429 carrying retry-after and the x-ratelimit-* headers. */
  admit(organizationId: string): void {
    const refusal = this.refusal(organizationId);
    if (refusal) throw refusal;
    this.take(organizationId);
  }

  reserve(organizationId: string): AppError | null {
    const refusal = this.refusal(organizationId);
    if (!refusal) this.take(organizationId);
    return refusal;
  }

  release(organizationId: string): void {
    this.buckets(organizationId).requests?.take(-1, this.clock());
  }

  /** Takes one request unit (after `refusal` said none). */
  take(organizationId: string): void {
    this.buckets(organizationId).requests?.take(1, this.clock());
  }

  /** The 429 this request would get now, without taking anything. */
  refusal(organizationId: string): AppError | null {
    const { requests, tokens } = this.buckets(organizationId);
    const now = this.clock();
    const waitRequests = requests ? requests.msUntil(1, now) : 0;
    const waitTokens = tokens ? tokens.msUntil(Number.MIN_VALUE, now) : 0;
    const wait = Math.max(waitRequests, waitTokens);
    if (wait > 0) {
      const which = waitRequests >= waitTokens ? `${requests!.capacity} requests` : `${tokens!.capacity} tokens`;
      return new AppError(
        "rate_limited",
        `Rate limit reached for this ${this.subject}: ${which} per minute. Retry in ${formatReset(wait)}.`,
        {
          detail: "rate_limit_exceeded",
          headers: {
            ...this.headers(organizationId),
            "retry-after": String(Math.max(1, Math.ceil(wait / 1000))),
            "retry-after-ms": String(wait),
          },
        },
      );
    }
    return null;
  }

  /** Debits what a finished request really used. */
  debitTokens(organizationId: string, count: number): void {
    if (count > 0) this.buckets(organizationId).tokens?.take(count, this.clock());
  }
}
