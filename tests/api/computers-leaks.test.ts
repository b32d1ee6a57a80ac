// 100 create/delete cycles leave no extra Chromium process, context or page.
import { describe, expect, it } from "vitest";
import { api, createSession, poolStats, waitFor } from "./computers-fixtures";

// Chromium keeps a spare renderer and utility processes whose number moves by
// one or two on its own; a leak of 100 sessions' contexts would be far more.
const SPARE_PROCESSES = 2;

describe("no leaks", () => {
  it("100 create/delete cycles return the pool to where it was", { timeout: 300_000 }, async () => {
    // The standby grows with demand (100 quick creates raise it) and shrinks back to its floor
    // once that demand is a minute old: compare the pool at its floor, before and after.
    const settled = (p: Awaited<ReturnType<typeof poolStats>>) => p.ending_sessions === 0 && p.standby_contexts === p.contexts - p.session_contexts &&
      p.standby_target === p.standby_floor && p.standby_contexts === p.standby_floor;
    const before = await waitFor("pool settled", () => poolStats(), settled, 90_000, 500);
    for (let i = 0; i < 100; i++) {
      const s = await createSession();
      if (i % 10 === 0) expect((await api("GET", `/computers/${s.id}/tabs`)).status).toBe(200);
      expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    }
    const after = await waitFor(
      "pool back to its size",
      () => poolStats(),
      (p) => p.browsers === before.browsers && p.contexts === before.contexts && p.pages === before.pages &&
        p.session_contexts === before.session_contexts && p.chromium_processes <= before.chromium_processes + SPARE_PROCESSES &&
        settled(p),
      120_000,
      500,
    );
    expect(after.live_sessions).toBe(before.live_sessions);
    expect(after.chromium_processes).toBeLessThanOrEqual(before.chromium_processes + SPARE_PROCESSES);
  });
});
