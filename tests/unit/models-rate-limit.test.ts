// @needs nothing
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/api/errors";
import { formatReset, RateLimiter } from "@/lib/models/limits/rate-limit";

function limiter(rpm: number, tpm: number) {
  let now = 1_000_000;
  const rl = new RateLimiter({ requestsPerMinute: rpm, tokensPerMinute: tpm }, () => now);
  return { rl, advance: (ms: number) => (now += ms) };
}

describe("RateLimiter", () => {
  it("admits up to the per-minute requests, then 429 with retry-after and headers", () => {
    const { rl, advance } = limiter(2, 0);
    rl.admit("org");
    rl.admit("org");
    let err: AppError | undefined;
    try {
      rl.admit("org");
    } catch (e) {
      err = e as AppError;
    }
    expect(err?.status).toBe(429);
    expect(err?.detail).toBe("rate_limit_exceeded");
    expect(err?.headers?.["retry-after"]).toBe("30");
    expect(err?.headers?.["x-ratelimit-limit-requests"]).toBe("2");
    expect(err?.headers?.["x-ratelimit-remaining-requests"]).toBe("0");
    expect(err?.headers?.["x-ratelimit-reset-requests"]).toBe("1m0s");
    // Another organization has its own budget.
    expect(() => rl.admit("other")).not.toThrow();
    advance(30_000);
    expect(() => rl.admit("org")).not.toThrow();
  });

  it("holds requests back while the token balance is negative", () => {
    const { rl, advance } = limiter(0, 600);
    rl.admit("org");
    rl.debitTokens("org", 660);
    expect(() => rl.admit("org")).toThrow(/600 tokens per minute/);
    expect(rl.headers("org")["x-ratelimit-remaining-tokens"]).toBe("0");
    advance(6_001);
    expect(() => rl.admit("org")).not.toThrow();
    expect(rl.headers("org")).not.toHaveProperty("x-ratelimit-limit-requests");
  });

  it("reports the state in OpenAI's header names", () => {
    const { rl } = limiter(60, 1000);
    rl.admit("org");
    rl.debitTokens("org", 100);
    expect(rl.headers("org")).toEqual({
      "x-ratelimit-limit-requests": "60",
      "x-ratelimit-remaining-requests": "59",
      "x-ratelimit-reset-requests": "1s",
      "x-ratelimit-limit-tokens": "1000",
      "x-ratelimit-remaining-tokens": "900",
      "x-ratelimit-reset-tokens": "6s",
    });
  });

  it("formats durations", () => {
    expect(formatReset(120)).toBe("120ms");
    expect(formatReset(1500)).toBe("1.5s");
    expect(formatReset(360_000)).toBe("6m0s");
  });
});

describe("RateLimiter.refusal", () => {
  it("reports the refusal without taking a unit, naming its subject", () => {
    const rl = new RateLimiter({ requestsPerMinute: 1, tokensPerMinute: 0 }, () => 0, "API key");
    expect(rl.refusal("k")).toBeNull();
    expect(rl.refusal("k")).toBeNull();
    rl.take("k");
    expect(rl.refusal("k")?.message).toMatch(/this API key: 1 requests per minute/);
  });
});
