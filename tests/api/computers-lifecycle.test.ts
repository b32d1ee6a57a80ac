// The server enforces lifetimes: idle and lifetime kills within 2 s of the
// deadline, with the right reason, leaving no Chromium context behind.
import { afterAll, describe, expect, it } from "vitest";
import { api, createSession, poolStats, sleep, waitFor } from "./computers-fixtures";

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map((id) => api("DELETE", `/computers/${id}`)));
});

async function waitTerminated(id: string, timeoutMs: number) {
  return waitFor(`${id} terminated`, async () => (await api("GET", `/computers/${id}/status`)).body, (b) => b.status === "terminated", timeoutMs, 100);
}

describe("lifecycle enforcement", () => {
  it("inactivity: ends after inactivity_timeout_seconds without activity (reason inactivity), context gone", async () => {
    const before = await poolStats();
    const s = await createSession({ inactivity_timeout_seconds: 2 });
    created.push(s.id);
    expect((await poolStats()).session_contexts).toBe(before.session_contexts + 1);
    const ended = await waitTerminated(s.id, 8000);
    expect(ended.termination_reason).toBe("inactivity");
    const lateBy = Date.parse(ended.terminated_at) - Date.parse(s.idle_expires_at);
    expect(lateBy).toBeGreaterThanOrEqual(0);
    expect(lateBy).toBeLessThanOrEqual(2000);
    const after = await waitFor("context closed", () => poolStats(), (p) => p.session_contexts === before.session_contexts);
    expect(after.live_sessions).toBe(before.live_sessions);
    expect((await api("POST", `/computers/${s.id}/keepalive`)).status).toBe(409);
  });

  it("activity postpones the idle kill", async () => {
    const s = await createSession({ inactivity_timeout_seconds: 2 });
    created.push(s.id);
    for (let i = 0; i < 4; i++) {
      await sleep(1000);
      expect((await api("POST", `/computers/${s.id}/execute`, { action: { type: "wait", ms: 1 } })).body.status).toBe("success");
    }
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("running");
    const ended = await waitTerminated(s.id, 8000);
    expect(ended.termination_reason).toBe("inactivity");
  });

  it("auto_kill false: inactivity does not end the session", async () => {
    const s = await createSession({ inactivity_timeout_seconds: 1, auto_kill: false });
    created.push(s.id);
    await sleep(2500);
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("ready");
  });

  it("lifetime: ends at expires_at whatever the activity (reason max_lifetime), context gone", async () => {
    const before = await poolStats();
    const s = await createSession({ timeout_seconds: 3, inactivity_timeout_seconds: 60 });
    created.push(s.id);
    const stopAt = Date.parse(s.expires_at) - 500;
    while (Date.now() < stopAt) {
      await api("POST", `/computers/${s.id}/keepalive`);
      await sleep(400);
    }
    const ended = await waitTerminated(s.id, 8000);
    expect(ended.termination_reason).toBe("max_lifetime");
    const lateBy = Date.parse(ended.terminated_at) - Date.parse(s.expires_at);
    expect(lateBy).toBeGreaterThanOrEqual(0);
    expect(lateBy).toBeLessThanOrEqual(2000);
    await waitFor("context closed", () => poolStats(), (p) => p.session_contexts === before.session_contexts);
  });
});
