// @needs nothing
// SharedRateLimiter's lease logic, with two limiters ("two processes") over one
// in-memory store that does what pgRateBucketStore's upsert does: refill, add
// back what is given back, grant what it can, debit tokens.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppError } from "@/lib/api/errors";
import type { RateLimits } from "@/lib/models/limits/rate-limit";
import {
  LEASE_TTL_MS,
  leaseSize,
  SharedRateLimiter,
  TOKEN_FLUSH_MS,
  type LeaseRequest,
  type RateBucketStore,
} from "@/lib/models/limits/shared-rate-limit";

function memoryStore(clock: () => number) {
  const buckets = new Map<string, { requests: number; tokens: number; at: number }>();
  const calls: LeaseRequest[] = [];
  const store: RateBucketStore = {
    async lease(subject: string, limits: RateLimits, request: LeaseRequest) {
      calls.push(request);
      const { requestsPerMinute: rpm, tokensPerMinute: tpm } = limits;
      const now = clock();
      const b = buckets.get(subject) ?? { requests: rpm, tokens: tpm, at: now };
      const elapsed = now - b.at;
      const requests = Math.min(rpm, b.requests + request.giveBack + (elapsed * rpm) / 60_000);
      const granted = Math.min(request.want, Math.max(0, Math.floor(requests)));
      const next = {
        requests: requests - granted,
        tokens: Math.min(tpm, b.tokens + (elapsed * tpm) / 60_000) - request.tokens,
        at: now,
      };
      buckets.set(subject, next);
      return { granted, requests: next.requests, tokens: next.tokens };
    },
  };
  return { store, calls };
}

function twoProcesses(limits: RateLimits) {
  let now = 1_000_000;
  const clock = () => now;
  const { store, calls } = memoryStore(clock);
  const log = { warn: vi.fn() };
  const make = () => new SharedRateLimiter(limits, store, log, clock, "organization");
  return { a: make(), b: make(), calls, log, advance: (ms: number) => (now += ms) };
}

const admitted = async (limiter: SharedRateLimiter, id = "org") => (await limiter.reserve(id)) === null;

afterEach(() => {
  vi.useRealTimers();
});

describe("leaseSize", () => {
  it("is 1% of the limit, at least 1 and at most 100", () => {
    expect([leaseSize(3), leaseSize(150), leaseSize(3000), leaseSize(1_000_000)]).toEqual([1, 1, 30, 100]);
  });
});

describe("SharedRateLimiter", () => {
  it("admits the shared limit across two processes, not twice it, then 429 with retry-after and headers", async () => {
    const { a, b } = twoProcesses({ requestsPerMinute: 4, tokensPerMinute: 0 });
    const results: boolean[] = [];
    for (let i = 0; i < 8; i++) results.push(await admitted(i % 2 ? b : a));
    expect(results.filter(Boolean)).toHaveLength(4);
    const refusal = (await a.reserve("org")) as AppError;
    expect(refusal.status).toBe(429);
    expect(refusal.detail).toBe("rate_limit_exceeded");
    expect(refusal.message).toMatch(/this organization: 4 requests per minute/);
    expect(Number(refusal.headers?.["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refusal.headers?.["x-ratelimit-limit-requests"]).toBe("4");
    expect(refusal.headers?.["x-ratelimit-remaining-requests"]).toBe("0");
    // Another subject has its own bucket.
    expect(await admitted(b, "other")).toBe(true);
  });

  it("refills continuously: a unit comes back after a quarter of a minute at 4/min", async () => {
    const { a, b, advance } = twoProcesses({ requestsPerMinute: 4, tokensPerMinute: 0 });
    for (let i = 0; i < 4; i++) expect(await admitted(a)).toBe(true);
    expect(await admitted(b)).toBe(false);
    advance(15_000);
    expect(await admitted(b)).toBe(true);
    expect(await admitted(a)).toBe(false);
  });

  // Also: both processes keep admitting.
  it("leases in slices: 30 requests at 3000/min cost at most two round trips", async () => {
    const { a, b, calls } = twoProcesses({ requestsPerMinute: 3000, tokensPerMinute: 0 });
    for (let i = 0; i < 30; i++) expect(await admitted(a)).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(calls[0]).toEqual({ want: 30, giveBack: 0, tokens: 0 });
    expect(await admitted(b)).toBe(true);
    // Most admissions answer without a promise: no database on the hot path.
    expect(a.reserve("org")).toBeNull();
  });

  it("gives back the unused part of a slice once it has been idle past the lease's lifetime", async () => {
    const { a, calls, advance } = twoProcesses({ requestsPerMinute: 3000, tokensPerMinute: 0 });
    expect(await admitted(a)).toBe(true);
    advance(LEASE_TTL_MS + 1);
    expect(await admitted(a)).toBe(true);
    expect(calls.at(-1)).toEqual({ want: 30, giveBack: 29, tokens: 0 });
  });

  it("release hands a reserved unit back to the local slice", async () => {
    const { a, b } = twoProcesses({ requestsPerMinute: 2, tokensPerMinute: 0 });
    expect(await admitted(a)).toBe(true);
    a.release("org");
    expect(await admitted(a)).toBe(true);
    expect(await admitted(b)).toBe(true);
    expect(await admitted(b)).toBe(false);
  });

  it("shares token spend: one process's debit, flushed, refuses the other", async () => {
    vi.useFakeTimers();
    const { a, b } = twoProcesses({ requestsPerMinute: 10, tokensPerMinute: 100 });
    expect(await admitted(a)).toBe(true);
    a.debitTokens("org", 150);
    const local = (await a.reserve("org")) as AppError;
    expect(local.message).toMatch(/100 tokens per minute/);
    expect(local.headers?.["x-ratelimit-remaining-tokens"]).toBe("0");
    await vi.advanceTimersByTimeAsync(TOKEN_FLUSH_MS);
    const remote = (await b.reserve("org")) as AppError;
    expect(remote?.message).toMatch(/100 tokens per minute/);
  });

  it("propagates a failed lease and keeps the tokens it was carrying", async () => {
    const failing: RateBucketStore = { lease: () => Promise.reject(new Error("database down")) };
    const limiter = new SharedRateLimiter(
      { requestsPerMinute: 5, tokensPerMinute: 100 },
      failing,
      { warn: vi.fn() },
      () => 0,
    );
    limiter.debitTokens("org", 40);
    await expect(limiter.reserve("org")).rejects.toThrow("database down");
    expect(limiter.headers("org")["x-ratelimit-remaining-tokens"]).toBe("60");
  });
});
