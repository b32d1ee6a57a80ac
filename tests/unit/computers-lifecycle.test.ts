// @needs nothing
import { describe, expect, it, vi } from "vitest";

// Whether CDP is offered depends on SESSION_CDP (cdpEnabled); the session object is tested both ways.
const cdp = vi.hoisted(() => ({ enabled: true }));
vi.mock("@/lib/computers/browser/cdp-enabled", () => ({ cdpEnabled: () => cdp.enabled }));
// Desktops' vnc endpoint depends on the host's x11vnc, their live view on its ffmpeg.
const tools = vi.hoisted(() => ({
  x11vnc: "/usr/bin/x11vnc" as string | null,
  ffmpeg: "/usr/bin/ffmpeg" as string | null,
}));
vi.mock("@/lib/computers/desktop/live-tools", () => ({
  x11vncPath: () => tools.x11vnc,
  ffmpegPath: () => tools.ffmpeg,
}));

import {
  dueReason,
  idleDeadlineAfter,
  initialDeadlines,
  msUntilDue,
  toSession,
  toSessionListItem,
} from "@/lib/computers/sessions/lifecycle";

const t0 = new Date("2026-01-01T00:00:00.000Z");
const at = (s: number) => new Date(t0.getTime() + s * 1000);

describe("deadlines", () => {
  it("sets expires_at and idle_expires_at from the configured lifetimes", () => {
    expect(initialDeadlines({ createdAt: t0, maxLifetimeSeconds: 3600, inactivityTimeoutSeconds: 120 })).toEqual({
      expiresAt: at(3600),
      idleExpiresAt: at(120),
      lastActivityAt: t0,
    });
    expect(idleDeadlineAfter(at(50), 120, at(3600))).toEqual(at(170));
  });

  it("never puts the idle deadline after expires_at", () => {
    expect(initialDeadlines({ createdAt: t0, maxLifetimeSeconds: 60, inactivityTimeoutSeconds: 120 })).toMatchObject({
      expiresAt: at(60),
      idleExpiresAt: at(60),
    });
    expect(idleDeadlineAfter(at(3550), 120, at(3600))).toEqual(at(3600));
  });

  it("ends for lifetime always, for inactivity only with auto_kill", () => {
    const s = { expiresAt: at(100), idleExpiresAt: at(10), autoKill: true };
    expect(dueReason(s, at(9))).toBeNull();
    expect(dueReason(s, at(10))).toBe("inactivity");
    expect(dueReason({ ...s, autoKill: false }, at(50))).toBeNull();
    expect(dueReason({ ...s, autoKill: false }, at(100))).toBe("max_lifetime");
    expect(dueReason(s, at(100))).toBe("max_lifetime");
    expect(msUntilDue(s, at(5))).toBe(5000);
    expect(msUntilDue({ ...s, autoKill: false }, at(5))).toBe(95_000);
    expect(msUntilDue(s, at(500))).toBe(0);
  });
});

describe("toSession", () => {
  const row = {
    id: "comp_abc",
    kind: "browser",
    status: "ready",
    createdAt: t0,
    expiresAt: at(3600),
    idleExpiresAt: at(120),
    lastActivityAt: t0,
    terminatedAt: null,
    terminationReason: null,
    maxLifetimeSeconds: 3600,
    inactivityTimeoutSeconds: 120,
    autoKill: true,
    persistent: false,
    environmentId: null,
    useAdvancedProxy: false,
    stealth: false,
    contextId: null,
    displayWidth: 1280,
    displayHeight: 720,
    displayScale: 1,
  };

  it("has every field of §2.1 with ISO timestamps", () => {
    const s = toSession(row, "http://localhost:3000");
    expect(s).toMatchObject({
      id: "comp_abc",
      kind: "browser",
      status: "ready",
      created_at: "2026-01-01T00:00:00.000Z",
      expires_at: "2026-01-01T01:00:00.000Z",
      idle_expires_at: "2026-01-01T00:02:00.000Z",
      last_activity_at: "2026-01-01T00:00:00.000Z",
      max_lifetime_seconds: 3600,
      inactivity_timeout_seconds: 120,
      auto_kill: true,
      display: { width: 1280, height: 720, scale: 1 },
      stealth: false,
      termination_reason: null,
    });
  });

  // Also: clamps an old row's idle deadline.
  it("mirrors auto_kill as idle_timeout_enabled, has live-view endpoints and, where offered, cdp", () => {
    const s = toSession(
      { ...row, autoKill: false, expiresAt: at(60), idleExpiresAt: at(120) },
      "http://localhost:3000",
    );
    expect(s).toMatchObject({ auto_kill: false, idle_timeout_enabled: false });
    expect(Object.keys(s.endpoints).sort()).toEqual(["cdp", "live_view", "screencast", "ws"]);
    expect(s.endpoints.live_view).toBe("http://localhost:3000/sessions/comp_abc");
    expect(s.endpoints.screencast).toMatch(/^http:\/\/localhost:3000\/computers\/comp_abc\/screencast\?token=/);
    expect(s.endpoints.ws).toMatch(/^ws:\/\/localhost:3000\/computers\/comp_abc\/ws\?token=/);
    expect(s.endpoints.cdp).toMatch(/^ws:\/\/localhost:3000\/computers\/comp_abc\/cdp\?token=/);
    expect(toSession({ ...row, status: "terminated" }, "http://localhost:3000").endpoints).toEqual({});
    cdp.enabled = false;
    expect(Object.keys(toSession(row, "http://localhost:3000").endpoints).sort()).toEqual([
      "live_view",
      "screencast",
      "ws",
    ]);
    cdp.enabled = true;
    const desktop = { ...row, kind: "desktop" };
    expect(Object.keys(toSession(desktop, "https://cabin.example").endpoints).sort()).toEqual([
      "live_view",
      "screencast",
      "vnc",
      "ws",
    ]);
    expect(toSession(desktop, "https://cabin.example").endpoints.vnc).toMatch(
      /^wss:\/\/cabin\.example\/computers\/comp_abc\/vnc\?token=/,
    );
    tools.x11vnc = null;
    expect(Object.keys(toSession(desktop, "https://cabin.example").endpoints).sort()).toEqual([
      "live_view",
      "screencast",
      "ws",
    ]);
    tools.x11vnc = "/usr/bin/x11vnc";
    tools.ffmpeg = null;
    expect(toSession(desktop, "https://cabin.example").endpoints).toEqual({});
    tools.ffmpeg = "/usr/bin/ffmpeg";
    expect(s.idle_expires_at).toBe(s.expires_at);
  });

  it("lists only id, kind, status, created_at", () => {
    expect(toSessionListItem(row)).toEqual({
      id: "comp_abc",
      kind: "browser",
      status: "ready",
      created_at: "2026-01-01T00:00:00.000Z",
    });
  });
});
