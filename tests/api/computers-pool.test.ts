// @needs server chromium
// The browser pool under bursts and a DELETE that answers at once: concurrent
// creates get ready, separate contexts; the standby grows with demand; a deleted
// session reads terminated immediately while its context is closed in the
// background (never leaked); a persistent session deleted and at once reused as
// environment_id still hands over its saved state.
import { describe, expect, it } from "vitest";
import {
  api,
  createSession,
  poolStats,
  readBrowserState,
  setBrowserState,
  useSessionSuite,
  waitFor,
  type PoolStats,
} from "./computers-fixtures";

const suite = useSessionSuite();

/** Every context is a session's or a standby one: none is left over from an ended session. */
const noOrphans = (p: PoolStats & { ending_sessions: number }) =>
  p.ending_sessions === 0 && p.contexts === p.session_contexts + p.standby_contexts && p.pages >= p.contexts;

describe("the pool under bursts", () => {
  it("ten concurrent creates all succeed ready, each in its own context", async () => {
    const made = await Promise.all(Array.from({ length: 10 }, () => suite.session()));
    expect(made.map((s) => s.status)).toEqual(Array(10).fill("ready"));
    expect(new Set(made.map((s) => s.id)).size).toBe(10);
    const value = `burst${Date.now()}`;
    await setBrowserState(made[0].id, suite.site, value);
    expect(await readBrowserState(made[0].id, suite.site)).toBe(`${value}|${value}|${value}`);
    // A cookie (and storage) set in one is visible in no other.
    const others = await Promise.all(made.slice(1).map((s) => readBrowserState(s.id, suite.site)));
    expect(others).toEqual(Array(9).fill("none|none|none"));
  });

  it("a burst raises the standby target, and the standby fills to it", async () => {
    const stats = await poolStats();
    // The burst above happened less than a minute ago: ten creates in about one second.
    expect(stats.standby_target).toBeGreaterThanOrEqual(5);
    await waitFor(
      "standby filled to its target",
      () => poolStats(),
      (p) => p.standby_contexts >= p.standby_target,
      30_000,
      250,
    );
  });
});

describe("delete answers at once", () => {
  it("204, the row reads terminated/deleted immediately, and the context is closed afterwards", async () => {
    const before = await waitFor("pool settled", () => poolStats(), noOrphans);
    const s = await createSession();
    expect((await poolStats()).session_contexts).toBe(before.session_contexts + 1);
    expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    const read = await api("GET", `/computers/${s.id}`);
    expect(read.body.status).toBe("terminated");
    expect(read.body.termination_reason).toBe("deleted");
    // Actions are refused at once too.
    expect((await api("POST", `/computers/${s.id}/execute`, { action: { type: "list_tabs" } })).status).toBe(409);
    await waitFor(
      "context closed",
      () => poolStats(),
      (p) => p.session_contexts === before.session_contexts && noOrphans(p),
    );
  });

  it("no context, page or live session leaks over 20 create/delete cycles", { timeout: 120_000 }, async () => {
    const before = await waitFor("pool settled", () => poolStats(), noOrphans);
    for (let i = 0; i < 20; i++) {
      const s = await createSession();
      expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    }
    const after = await waitFor(
      "tear-downs finished",
      () => poolStats(),
      (p) => p.session_contexts === before.session_contexts && p.live_sessions === before.live_sessions && noOrphans(p),
      30_000,
      250,
    );
    // One blank page per standby context, plus the pages of sessions that were there before.
    expect(after.pages - after.standby_contexts).toBe(before.pages - before.standby_contexts);
  });

  it("a persistent session deleted and at once reused as environment_id restores its saved cookie", async () => {
    const value = `kept${Date.now()}`;
    const original = await suite.session({ persistent: true });
    await setBrowserState(original.id, suite.site, value);
    expect((await api("DELETE", `/computers/${original.id}`)).status).toBe(204);
    // No waiting: the create waits for the background save of the deleted session.
    const restored = await suite.session({ environment_id: original.id });
    expect(await readBrowserState(restored.id, suite.site)).toBe(`${value}|${value}|${value}`);
  });
});
