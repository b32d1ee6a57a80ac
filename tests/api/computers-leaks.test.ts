// 100 create/delete cycles leave no extra Chromium process, context or page.
import { describe, expect, it } from "vitest";
import { api, createSession, poolStats, waitFor } from "./computers-fixtures";

// Chromium keeps a spare renderer and utility processes whose number moves by
// one or two on its own; a leak of 100 sessions' contexts would be far more.
const SPARE_PROCESSES = 2;

type Stats = Awaited<ReturnType<typeof poolStats>>;
/** Pages or processes besides the standby's (each standby context holds one blank page in its own renderer). */
const outside = (p: Stats, what: "pages" | "chromium_processes") => p[what] - p.standby_contexts;

describe("no leaks", () => {
  it("100 create/delete cycles return the pool to where it was", { timeout: 300_000 }, async () => {
    const settled = (p: Awaited<ReturnType<typeof poolStats>>) => p.standby_contexts === p.contexts - p.session_contexts;
    const before = await waitFor("pool settled", () => poolStats(), settled);
    for (let i = 0; i < 100; i++) {
      const s = await createSession();
      if (i % 10 === 0) expect((await api("GET", `/computers/${s.id}/tabs`)).status).toBe(200);
      expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    }
    const after = await waitFor(
      "pool back to its size",
      () => poolStats(),
      // The standby is sized from demand, so 100 quick creates may grow it: count what is not standby.
      (p) => p.browsers === before.browsers && settled(p) && outside(p, "pages") === outside(before, "pages") &&
        p.session_contexts === before.session_contexts && outside(p, "chromium_processes") <= outside(before, "chromium_processes") + SPARE_PROCESSES,
      30_000,
      500,
    );
    expect(after.live_sessions).toBe(before.live_sessions);
    expect(outside(after, "chromium_processes")).toBeLessThanOrEqual(outside(before, "chromium_processes") + SPARE_PROCESSES);
  });
});
