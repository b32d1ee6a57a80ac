// @needs nothing
// Standby sizing from demand (StandbyDemand, standbyTarget): pure logic, no browser.
import { describe, expect, it } from "vitest";
import { StandbyDemand, standbyTarget } from "@/lib/computers/browser/standby-demand";

const MiB = 1024 * 1024;
const base = {
  min: 2,
  max: 20,
  largestBurst: 0,
  current: 2,
  freeBytes: 8192 * MiB,
  reserveBytes: 1024 * MiB,
  perContextBytes: 80 * MiB,
};

describe("StandbyDemand", () => {
  it("reports the most creates within 3 s of the last minute and forgets older ones", () => {
    const demand = new StandbyDemand(60_000, 3_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 10; i++) demand.record(t0 + i * 250); // ten within 2.25 s
    for (let i = 0; i < 3; i++) demand.record(t0 + 20_000 + i * 1_000); // three spaced 1 s apart
    expect(demand.largestBurst(t0 + 21_000)).toBe(10);
    expect(demand.largestBurst(t0 + 59_000)).toBe(10);
    expect(demand.largestBurst(t0 + 63_000)).toBe(3); // the first burst left the window
    expect(demand.largestBurst(t0 + 90_000)).toBe(0);
  });
  it("creates spread wider than the burst span do not add up", () => {
    const demand = new StandbyDemand(60_000, 3_000);
    for (let i = 0; i < 30; i++) demand.record(1_000_000 + i * 1_000);
    expect(demand.largestBurst(1_030_000)).toBe(3);
  });
});

describe("standbyTarget", () => {
  it("keeps the floor without demand", () => {
    expect(standbyTarget(base)).toBe(2);
  });
  it("follows the peak between floor and ceiling", () => {
    expect(standbyTarget({ ...base, largestBurst: 10 })).toBe(10);
    expect(standbyTarget({ ...base, largestBurst: 50 })).toBe(20);
  });
  it("stops growing when free memory would fall below the reserve, but keeps the floor", () => {
    // 1.5 GiB free, 1 GiB reserved: room for 6 more contexts of 80 MiB.
    expect(standbyTarget({ ...base, largestBurst: 15, current: 3, freeBytes: 1536 * MiB })).toBe(9);
    expect(standbyTarget({ ...base, largestBurst: 15, current: 0, freeBytes: 512 * MiB })).toBe(2);
  });
  it("a ceiling below the floor wins", () => {
    expect(standbyTarget({ ...base, min: 5, max: 3 })).toBe(3);
  });
});
