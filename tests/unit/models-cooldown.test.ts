// @needs nothing
import { describe, expect, it } from "vitest";
import { Cooldowns } from "@/lib/models/limits/cooldown";

describe("Cooldowns", () => {
  const clock = () => {
    let t = 1_000_000;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it("cools a backend after N consecutive failures, for the configured time", () => {
    const c = clock();
    const cooldowns = new Cooldowns({ failures: 3, coolMs: 30_000 }, c.now);
    cooldowns.failed("m", "a");
    cooldowns.failed("m", "a");
    expect(cooldowns.isCooling("m", "a")).toBe(false);
    cooldowns.failed("m", "a");
    expect(cooldowns.isCooling("m", "a")).toBe(true);
    expect(cooldowns.isCooling("m", "b")).toBe(false);
    expect(cooldowns.isCooling("other", "a")).toBe(false);
    expect(cooldowns.cooling()).toEqual([
      { model: "m", backend: "a", consecutive_failures: 3, until: new Date(c.now() + 30_000).toISOString() },
    ]);
    c.advance(30_000);
    expect(cooldowns.isCooling("m", "a")).toBe(false);
    expect(cooldowns.cooling()).toEqual([]);
  });

  it("cools again at the first failure after a cool-down; a success clears the count", () => {
    const c = clock();
    const cooldowns = new Cooldowns({ failures: 2, coolMs: 1000 }, c.now);
    cooldowns.failed("m", "a");
    cooldowns.failed("m", "a");
    c.advance(1000);
    cooldowns.failed("m", "a");
    expect(cooldowns.isCooling("m", "a")).toBe(true);
    c.advance(1000);
    cooldowns.succeeded("m", "a");
    cooldowns.failed("m", "a");
    expect(cooldowns.isCooling("m", "a")).toBe(false);
  });

  it("never cools with failures set to 0", () => {
    const cooldowns = new Cooldowns({ failures: 0, coolMs: 1000 });
    for (let i = 0; i < 10; i++) cooldowns.failed("m", "a");
    expect(cooldowns.isCooling("m", "a")).toBe(false);
  });
});
