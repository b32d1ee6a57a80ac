// @needs server postgres chromium
// The server enforces lifetimes: idle and lifetime kills at (never before) the
// deadline, with the right reason, leaving no Chromium context behind. How late
// after it the reaper acts is a figure `npm run bench:sessions` prints, not an assertion.
import { afterAll, describe, expect, it } from "vitest";
import { api, createSession, poolStats, quietPoolStats, waitFor } from "./computers-fixtures";
import { waitFor as poll } from "./wait-for";

/** How long after a deadline a test watches for a kill that must not happen. */
const REAP_MARGIN_MS = 2000;

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map((id) => api("DELETE", `/computers/${id}`)));
});

async function waitTerminated(id: string, timeoutMs: number) {
  return waitFor(
    `${id} terminated`,
    async () => (await api("GET", `/computers/${id}/status`)).body,
    (b) => b.status === "terminated",
    timeoutMs,
    100,
  );
}

describe("lifecycle enforcement", () => {
  // Also: context gone.
  it("inactivity: ends after inactivity_timeout_seconds without activity (reason inactivity)", async () => {
    const before = await quietPoolStats();
    const s = await createSession({ inactivity_timeout_seconds: 2 });
    created.push(s.id);
    expect((await poolStats()).session_contexts).toBe(before.session_contexts + 1);
    const ended = await waitTerminated(s.id, 8000);
    expect(ended.termination_reason).toBe("inactivity");
    expect(Date.parse(ended.terminated_at)).toBeGreaterThanOrEqual(Date.parse(s.idle_expires_at));
    const after = await waitFor(
      "context closed",
      () => poolStats(),
      (p) => p.session_contexts === before.session_contexts,
    );
    expect(after.live_sessions).toBe(before.live_sessions);
    expect((await api("POST", `/computers/${s.id}/keepalive`)).status).toBe(409);
  });

  it("activity postpones the idle kill", async () => {
    const s = await createSession({ inactivity_timeout_seconds: 2 });
    created.push(s.id);
    // An action every second, until well past the first idle deadline and the reaper's margin.
    const pastFirstKill = Date.parse(s.idle_expires_at) + REAP_MARGIN_MS;
    await poll(
      async () => {
        expect((await api("POST", `/computers/${s.id}/execute`, { action: { type: "wait", ms: 1 } })).body.status).toBe(
          "success",
        );
        return Date.now();
      },
      {
        until: (now) => now > pastFirstKill,
        intervalMs: 1000,
        timeoutMs: 10_000,
        message: "the first idle deadline to pass",
      },
    );
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("running");
    const ended = await waitTerminated(s.id, 8000);
    expect(ended.termination_reason).toBe("inactivity");
  });

  it("auto_kill false: inactivity does not end the session", async () => {
    const s = await createSession({ inactivity_timeout_seconds: 1, auto_kill: false });
    created.push(s.id);
    // Watched through the whole window in which an idle kill would have happened.
    const pastIdleKill = Date.parse(s.last_activity_at) + 1000 + REAP_MARGIN_MS;
    await poll(
      async () => {
        expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("ready");
        return Date.now();
      },
      {
        until: (now) => now > pastIdleKill,
        intervalMs: 250,
        timeoutMs: 10_000,
        message: "the idle deadline and its margin to pass",
      },
    );
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("ready");
  });

  it("lifetime: ends at expires_at whatever the activity (reason max_lifetime), context gone", async () => {
    const before = await quietPoolStats();
    const s = await createSession({ timeout_seconds: 3, inactivity_timeout_seconds: 60 });
    created.push(s.id);
    // Keep-alives until just before the lifetime ends: activity must not extend it.
    const stopAt = Date.parse(s.expires_at) - 500;
    await poll(
      async () => {
        await api("POST", `/computers/${s.id}/keepalive`);
        return Date.now();
      },
      { until: (now) => now >= stopAt, intervalMs: 400, timeoutMs: 10_000, message: "keep-alives up to the lifetime" },
    );
    const ended = await waitTerminated(s.id, 8000);
    expect(ended.termination_reason).toBe("max_lifetime");
    expect(Date.parse(ended.terminated_at)).toBeGreaterThanOrEqual(Date.parse(s.expires_at));
    await waitFor(
      "context closed",
      () => poolStats(),
      (p) => p.session_contexts === before.session_contexts,
    );
  });
});
