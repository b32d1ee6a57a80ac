// @needs nothing
// Session time and range arithmetic of the Usage page: pure functions.
import { describe, expect, it } from "vitest";
import { peakConcurrent, summarizeSpans } from "@/lib/computers/dashboard/session-usage";
import { bucketStarts, parseUsageRange } from "@/lib/usage-range";
import { niceTicks } from "@/components/usage/chart-scale";
import { csvCell } from "@/lib/usage/usage-csv";

const NOW = new Date("2026-11-23T15:30:00Z");
const at = (iso: string) => Date.parse(iso);

describe("usage range", () => {
  it("defaults to 30 UTC days ending now, in daily buckets", () => {
    const r = parseUsageRange(new URLSearchParams(), NOW);
    expect(r).toMatchObject({ preset: "30d", bucket: "day" });
    expect(r.from.toISOString()).toBe("2026-10-25T00:00:00.000Z");
    expect(bucketStarts(r, r.bucket)).toHaveLength(30);
  });

  it("uses hourly buckets for 24 h and reads a custom inclusive range", () => {
    const day = parseUsageRange(new URLSearchParams("range=24h"), NOW);
    expect(day.bucket).toBe("hour");
    expect(bucketStarts(day, "hour")).toHaveLength(25);
    const custom = parseUsageRange(new URLSearchParams("from=2026-11-01&to=2026-11-03"), NOW);
    expect(custom).toMatchObject({ preset: "custom", bucket: "day" });
    expect(custom.to.toISOString()).toBe("2026-11-04T00:00:00.000Z");
    expect(parseUsageRange(new URLSearchParams("range=month"), NOW).from.toISOString()).toBe(
      "2026-11-01T00:00:00.000Z",
    );
  });

  it("refuses a backwards, unbounded or malformed range with the field named", () => {
    expect(() => parseUsageRange(new URLSearchParams("from=2026-11-05&to=2026-11-01"), NOW)).toThrow(/after 'from'/);
    expect(() => parseUsageRange(new URLSearchParams("from=2020-01-01&to=2026-01-01"), NOW)).toThrow(/366 days/);
    expect(() => parseUsageRange(new URLSearchParams("from=yesterday"), NOW)).toThrow(/from/);
    expect(() => parseUsageRange(new URLSearchParams("range=year"), NOW)).toThrow(/range/);
  });
});

describe("session spans", () => {
  it("finds the peak of overlapping spans; touching spans do not overlap", () => {
    expect(
      peakConcurrent([
        { start: 0, end: 10 },
        { start: 5, end: 15 },
        { start: 6, end: 7 },
      ]),
    ).toBe(3);
    expect(
      peakConcurrent([
        { start: 0, end: 10 },
        { start: 10, end: 20 },
      ]),
    ).toBe(1);
    expect(peakConcurrent([])).toBe(0);
  });

  it("splits minutes over buckets, by kind and by key", () => {
    const range = { from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-03T00:00:00Z") };
    const starts = bucketStarts(range, "day");
    const usage = summarizeSpans(
      [
        { kind: "browser", apiKeyId: "k1", start: at("2026-11-01T23:00:00Z"), end: at("2026-11-02T01:00:00Z") },
        { kind: "desktop", apiKeyId: null, start: at("2026-11-02T10:00:00Z"), end: at("2026-11-02T10:30:00Z") },
      ],
      starts,
      "day",
      { browser: 1, desktop: 0 },
    );
    expect(usage.by_bucket).toEqual([
      { browser: 60, desktop: 0 },
      { browser: 60, desktop: 30 },
    ]);
    expect(usage.by_kind.browser).toMatchObject({ minutes: 120, sessions: 1, live_now: 1, peak_concurrent: 1 });
    expect(usage.by_kind.desktop).toMatchObject({ minutes: 30, peak_concurrent: 1 });
    expect(Object.fromEntries(usage.by_key)).toEqual({ k1: 120, "": 30 });
  });
});

describe("chart and CSV helpers", () => {
  it("rounds axis ticks to 1/2/5 steps covering the maximum", () => {
    expect(niceTicks(93)).toEqual([0, 50, 100]);
    expect(niceTicks(180)).toEqual([0, 50, 100, 150, 200]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(0.0042).at(-1)).toBeGreaterThanOrEqual(0.0042);
  });

  it("quotes CSV cells and defuses formulas", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell(-1)).toBe("-1");
  });
});
