// @needs nothing
import { describe, expect, it } from "vitest";
import { decideBegin, IN_FLIGHT_STALE_MS, LoginBackoff } from "@/lib/auth/login-backoff";

const settings = () => ({ freeFailures: 2, baseMs: 1000, maxMs: 8000 });

function fail(b: LoginBackoff, key: string, now: number) {
  expect(b.begin(key, now)).toBe(0);
  b.finish(key, "failed", now);
}

describe("LoginBackoff", () => {
  it("lets the free failures through, then doubles the wait up to the maximum", () => {
    const b = new LoginBackoff(settings);
    fail(b, "k", 0);
    fail(b, "k", 0);
    expect(b.begin("k", 0)).toBe(1000);
    fail(b, "k", 1000);
    expect(b.begin("k", 1000)).toBe(2000);
    fail(b, "k", 3000);
    fail(b, "k", 7000);
    fail(b, "k", 15_000);
    expect(b.begin("k", 15_000)).toBe(8000);
  });

  it("keys are independent: one pair's failures never delay another", () => {
    const b = new LoginBackoff(settings);
    for (let i = 0; i < 3; i++) fail(b, "attacker", 10_000 * i);
    expect(b.begin("attacker", 20_000)).toBeGreaterThan(0);
    expect(b.begin("owner", 0)).toBe(0);
  });

  it("past the free failures, parallel attempts cannot share one window", () => {
    const b = new LoginBackoff(settings);
    fail(b, "k", 0);
    expect(b.begin("k", 0)).toBe(0); // the second free attempt, still in flight
    expect(b.begin("k", 0)).toBeGreaterThan(0);
  });

  it("a success clears the pair; a refusal for another reason is not a failure", () => {
    const b = new LoginBackoff(settings);
    fail(b, "k", 0);
    expect(b.begin("k", 0)).toBe(0);
    b.finish("k", "succeeded", 0);
    fail(b, "k", 0);
    expect(b.begin("k", 0)).toBe(0);
    b.finish("k", "other", 0);
    expect(b.begin("k", 0)).toBe(0);
  });

  it("failures an hour old are forgiven", () => {
    const b = new LoginBackoff(settings);
    fail(b, "k", 0);
    fail(b, "k", 0);
    expect(b.begin("k", 3_600_001)).toBe(0);
  });
});

describe("decideBegin", () => {
  it("forgets an attempt in flight past IN_FLIGHT_STALE_MS (its node stopped before the answer)", () => {
    const s = settings();
    const entry = { failures: 2, inFlight: 1, inFlightSince: 0, nextAt: 0, lastFailureAt: 0 };
    expect(decideBegin(entry, 1000, s).waitMs).toBe(s.baseMs);
    expect(decideBegin(entry, IN_FLIGHT_STALE_MS + 1, s).waitMs).toBe(0);
  });
});
