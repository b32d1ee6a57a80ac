// @needs nothing
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/api/errors";
import { decodeCursor, encodeCursor, parsePageQuery } from "@/lib/computers/sessions/list-page";
import {
  defaultQuotas,
  effectiveQuotas,
  liveUsage,
  QuotaGate,
  type QuotaSession,
} from "@/lib/computers/sessions/quotas";

const NOW = Date.parse("2026-11-23T12:00:00Z");
const session = (over: Partial<QuotaSession> = {}): QuotaSession => ({
  organizationId: "org_a",
  kind: "browser",
  ending: null,
  autoKill: true,
  expiresAt: new Date(NOW + 3_600_000),
  idleExpiresAt: new Date(NOW + 20_000),
  ...over,
});
const quotas = { browserSessions: 2, desktopSessions: 1, createsPerMinute: 0 };

function refusal(fn: () => void) {
  try {
    fn();
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("QuotaGate", () => {
  it("counts only the organization's sessions of that kind that are not ending", () => {
    const gate = new QuotaGate();
    const sessions = [
      session(),
      session({ ending: Promise.resolve() }),
      session({ organizationId: "org_b" }),
      session({ kind: "desktop" }),
    ];
    expect(() => gate.admit({ sessions, organizationId: "org_a", kind: "browser", quotas, now: NOW })).not.toThrow();
    expect(liveUsage(sessions, "org_a")).toEqual({ browser: 1, desktop: 1 });
  });

  it("refuses at the quota with 429, the setting's name and number, and retry-after from the soonest deadline", () => {
    const err = refusal(() =>
      new QuotaGate().admit({
        sessions: [session(), session()],
        organizationId: "org_a",
        kind: "browser",
        quotas,
        now: NOW,
      }),
    );
    expect(err.status).toBe(429);
    expect(err.message).toContain("ORG_MAX_BROWSER_SESSIONS");
    expect(err.message).toContain("2 browser sessions");
    expect(err.headers?.["retry-after"]).toBe("20");
  });

  it("caps retry-after to a minute and never says 0", () => {
    const far = session({ autoKill: false });
    const overdue = session({ idleExpiresAt: new Date(NOW - 5_000) });
    const now = refusal(() =>
      new QuotaGate().admit({
        sessions: [overdue, overdue],
        organizationId: "org_a",
        kind: "browser",
        quotas,
        now: NOW,
      }),
    );
    expect(now.headers?.["retry-after"]).toBe("1");
    const none = refusal(() =>
      new QuotaGate().admit({ sessions: [far, far], organizationId: "org_a", kind: "browser", quotas, now: NOW }),
    );
    expect(none.headers?.["retry-after"]).toBe("60");
  });

  it("limits creations per minute per organization, with retry-after until the oldest leaves the window", () => {
    const gate = new QuotaGate();
    const rate = { ...quotas, browserSessions: 100, createsPerMinute: 2 };
    gate.admit({ sessions: [], organizationId: "org_a", kind: "browser", quotas: rate, now: NOW });
    gate.admit({ sessions: [], organizationId: "org_a", kind: "browser", quotas: rate, now: NOW + 10_000 });
    const err = refusal(() =>
      gate.admit({ sessions: [], organizationId: "org_a", kind: "browser", quotas: rate, now: NOW + 15_000 }),
    );
    expect(err.message).toContain("ORG_SESSION_CREATES_PER_MINUTE");
    expect(err.headers?.["retry-after"]).toBe("45");
    expect(() =>
      gate.admit({ sessions: [], organizationId: "org_b", kind: "browser", quotas: rate, now: NOW + 15_000 }),
    ).not.toThrow();
    expect(() =>
      gate.admit({ sessions: [], organizationId: "org_a", kind: "browser", quotas: rate, now: NOW + 60_001 }),
    ).not.toThrow();
  });

  it("adds the other nodes' sessions and recent creations (a cluster) to this node's own", () => {
    const gate = new QuotaGate();
    const two = { ...quotas, browserSessions: 2, createsPerMinute: 0 };
    const elsewhere = { sessions: [session()], createdAt: [] };
    const err = refusal(() =>
      gate.admit({ sessions: [session()], organizationId: "org_a", kind: "browser", quotas: two, elsewhere, now: NOW }),
    );
    expect(err.message).toContain("may run 2 browser sessions at once");
    expect(err.message).toContain("runs 2");

    const rate = { ...quotas, browserSessions: 100, createsPerMinute: 3 };
    const recent = { sessions: [], createdAt: [NOW - 50_000, NOW - 20_000] };
    gate.admit({ sessions: [], organizationId: "org_c", kind: "browser", quotas: rate, elsewhere: recent, now: NOW });
    const limited = refusal(() =>
      gate.admit({ sessions: [], organizationId: "org_c", kind: "browser", quotas: rate, elsewhere: recent, now: NOW }),
    );
    // The oldest of the three (another node's, 50 s ago) leaves the window in 10 s.
    expect(limited.headers?.["retry-after"]).toBe("10");
  });
});

describe("quota settings", () => {
  const env = {
    ORG_MAX_BROWSER_SESSIONS: 64,
    ORG_MAX_DESKTOP_SESSIONS: undefined,
    ORG_SESSION_CREATES_PER_MINUTE: 600,
    DESKTOP_MAX_SESSIONS: 16,
  };
  it("desktops default to a quarter of the host's slots", () => {
    expect(defaultQuotas(env).desktopSessions).toBe(4);
    expect(defaultQuotas({ ...env, DESKTOP_MAX_SESSIONS: 1 }).desktopSessions).toBe(1);
  });
  it("an operator override wins; null keeps the default", () => {
    const q = effectiveQuotas(defaultQuotas(env), {
      maxBrowserSessions: 3,
      maxDesktopSessions: null,
      sessionCreatesPerMinute: 0,
    });
    expect(q).toEqual({ browserSessions: 3, desktopSessions: 4, createsPerMinute: 0 });
  });
});

describe("GET /computers cursors", () => {
  it("round-trips and refuses anything else naming the parameter", () => {
    const position = { createdAtMs: NOW, id: "comp_0123456789abcdef01234567" };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    for (const bad of [
      "",
      "!!",
      Buffer.from("{}").toString("base64url"),
      Buffer.from(`[${NOW},"x"]`).toString("base64url"),
    ]) {
      expect(() => decodeCursor(bad)).toThrow(/cursor/);
    }
  });
  it("no limit and no cursor means no pagination", () => {
    expect(parsePageQuery(new URLSearchParams("type=live"))).toBeNull();
    expect(parsePageQuery(new URLSearchParams("limit=10"))).toEqual({ limit: 10, after: null });
    expect(() => parsePageQuery(new URLSearchParams("limit=0"))).toThrow(/limit/);
  });
});
