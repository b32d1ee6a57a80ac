// @needs server light postgres chromium desktop
// The session resource through HTTP: every field and default of §2.1/§2.2,
// the aliases, bounds, list/get/status/keepalive/delete, and every 4xx.
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { call } from "./client";
import { api, createSession } from "./computers-fixtures";
import { waitFor } from "./wait-for";

const created: string[] = [];
async function session(body: Record<string, unknown> = {}) {
  const s = await createSession(body);
  created.push(s.id);
  return s;
}

afterAll(async () => {
  await Promise.all(created.map((id) => api("DELETE", `/computers/${id}`)));
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("POST /computers", () => {
  it("creates a ready browser session with every default of §2.2", async () => {
    const started = Date.now();
    const s = await session();
    expect(s.id).toMatch(/^comp_[0-9a-f]{24}$/);
    expect(s).toMatchObject({
      kind: "browser",
      status: "ready",
      max_lifetime_seconds: 3600,
      inactivity_timeout_seconds: 120,
      auto_kill: true,
      persistent: false,
      use_advanced_proxy: false,
      stealth: false,
      environment_id: null,
      context_id: null,
      display: { width: 1280, height: 720, scale: 1 },
      termination_reason: null,
    });
    for (const field of ["created_at", "expires_at", "idle_expires_at", "last_activity_at"])
      expect(s[field]).toMatch(ISO);
    const createdAt = Date.parse(s.created_at);
    expect(createdAt).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(s.expires_at) - createdAt).toBe(3600_000);
    expect(Date.parse(s.idle_expires_at) - createdAt).toBe(120_000);
  });

  it("keeps every given field and accepts the aliases (the newer name wins)", async () => {
    const s = await session({
      timeout_seconds: 100,
      max_lifetime_seconds: 200,
      inactivity_timeout_seconds: 30,
      auto_kill: true,
      idle_timeout_enabled: false,
      display: { width: 800, height: 600, scale: 2 },
      context_id: "run-7",
      stealth: true,
    });
    expect(s).toMatchObject({
      max_lifetime_seconds: 200,
      inactivity_timeout_seconds: 30,
      auto_kill: false,
      context_id: "run-7",
      stealth: true,
      display: { width: 800, height: 600, scale: 2 },
    });
    expect(Date.parse(s.expires_at) - Date.parse(s.created_at)).toBe(200_000);
    // The viewport is the display size.
    const shot = await api("POST", `/computers/${s.id}/screenshot`, { base64: true });
    expect(shot.body.page_context).toMatchObject({ viewport_w: 800, viewport_h: 600 });
    const png = Buffer.from(shot.body.result.screenshot, "base64");
    expect(png.readUInt32BE(16)).toBe(1600); // scale 2 → device pixels
    expect(png.readUInt32BE(20)).toBe(1200);
  });

  it("applies a non-default viewport to a pooled context and to new tabs", async () => {
    const s = await session({ display: { width: 1024, height: 768 } });
    const shot = await api("POST", `/computers/${s.id}/screenshot`, { base64: true });
    const png = Buffer.from(shot.body.result.screenshot, "base64");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 768]);
    await api("POST", `/computers/${s.id}/tabs`, {});
    const shot2 = await api("POST", `/computers/${s.id}/screenshot`, { base64: true });
    expect(shot2.body.page_context).toMatchObject({ viewport_w: 1024, viewport_h: 768 });
  });

  it("accepts an empty body and refuses unknown fields", async () => {
    const res = await call("POST", "/computers", { rawBody: "" });
    expect(res.status).toBe(200);
    created.push(res.body.id);
    const res2 = await call("POST", "/computers", { body: { some_future_field: 1 } });
    expect(res2.status).toBe(400);
    expect(res2.body.error.param).toBe("some_future_field");
  });

  it.each([
    [{ display: { width: 319 } }, "display.width"],
    [{ display: { width: 3841 } }, "display.width"],
    [{ display: { height: 239 } }, "display.height"],
    [{ display: { height: 2161 } }, "display.height"],
    [{ kind: "vm" }, "kind"],
    [{ timeout_seconds: 0 }, "timeout_seconds"],
    [{ timeout_seconds: 3601 }, "timeout_seconds"],
    [{ max_lifetime_seconds: "60" }, "max_lifetime_seconds"],
    [{ inactivity_timeout_seconds: 0 }, "inactivity_timeout_seconds"],
    [{ auto_kill: "true" }, "auto_kill"],
    [{ persistent: 1 }, "persistent"],
    [{ use_advanced_proxy: true }, "use_advanced_proxy"],
    [{ kind: "desktop", use_advanced_proxy: true }, "use_advanced_proxy"],
    [{ context_id: 5 }, "context_id"],
  ])("400 for %j naming %s", async (body, param) => {
    const res = await api("POST", "/computers", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_request", param });
  });

  it("says the operator has not configured a proxy", async () => {
    const res = await api("POST", "/computers", { use_advanced_proxy: true });
    expect(res.body.error.message).toMatch(/operator.*not configured/);
  });

  it("400 for malformed JSON, 401 without a key", async () => {
    expect((await call("POST", "/computers", { rawBody: "{" })).status).toBe(400);
    const res = await call("POST", "/computers", { key: null, body: {} });
    expect(res.status).toBe(401);
    expect((await call("GET", "/computers", { key: "sk-wrong" })).status).toBe(401);
  });

  it("environment_id errors: unknown, foreign, not persistent, no state yet", async () => {
    const unknown = await api("POST", "/computers", { environment_id: "comp_000000000000000000000000" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe("environment_id");

    const plain = await session();
    const notPersistent = await api("POST", "/computers", { environment_id: plain.id });
    expect(notPersistent.status).toBe(400);
    expect(notPersistent.body.error.message).toMatch(/persistent/);

    const persistent = await session({ persistent: true });
    const noState = await api("POST", "/computers", { environment_id: persistent.id });
    expect(noState.status).toBe(400);
    expect(noState.body.error.message).toMatch(/no saved state yet/);

    const foreign = await api("POST", "/computers", { environment_id: persistent.id }, { key: inject("apiKeyB") });
    expect(foreign.status).toBe(404);
  });
});

describe("reading, keepalive, delete", () => {
  it("GET /computers/{id} and /status have every §2.1 field; a read is not activity", async () => {
    const s = await session();
    const got = await api("GET", `/computers/${s.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(s);
    const status = await api("GET", `/computers/${s.id}/status`);
    expect(status.body).toEqual(s);
    expect(status.body.status).toBe("ready");
  });

  it("keepalive is activity: running, last_activity_at and idle_expires_at move, expires_at does not", async () => {
    const s = await session({ inactivity_timeout_seconds: 60 });
    // Timestamps have millisecond resolution: activity shows as a move once the clock has passed the last one.
    await waitFor(() => Date.now(), {
      until: (now) => now > Date.parse(s.last_activity_at),
      intervalMs: 1,
      message: "the clock to pass last_activity_at",
    });
    const res = await api("POST", `/computers/${s.id}/keepalive`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("running");
    expect(Date.parse(res.body.last_activity_at)).toBeGreaterThan(Date.parse(s.last_activity_at));
    expect(Date.parse(res.body.idle_expires_at) - Date.parse(res.body.last_activity_at)).toBe(60_000);
    expect(res.body.expires_at).toBe(s.expires_at);
    const got = await api("GET", `/computers/${s.id}`);
    expect(got.body.last_activity_at).toBe(res.body.last_activity_at);
  });

  it("lists {id, kind, status, created_at}, filters live and persistent", async () => {
    const live = await session();
    const ended = await session();
    expect((await api("DELETE", `/computers/${ended.id}`)).status).toBe(204);
    const all = await api("GET", "/computers");
    expect(all.status).toBe(200);
    const item = all.body.find((c: any) => c.id === live.id);
    expect(item).toEqual({ id: live.id, kind: "browser", status: "ready", created_at: live.created_at });
    expect(all.body.find((c: any) => c.id === ended.id)?.status).toBe("terminated");
    const liveOnly = await api("GET", "/computers?type=live");
    expect(liveOnly.body.some((c: any) => c.id === live.id)).toBe(true);
    expect(liveOnly.body.some((c: any) => c.id === ended.id)).toBe(false);
    const persistent = await api("GET", "/computers?type=persistent");
    expect(persistent.body.some((c: any) => c.id === live.id)).toBe(false);
    expect((await api("GET", "/computers?type=dead")).status).toBe(400);
    const other = await api("GET", "/computers", undefined, { key: inject("apiKeyB") });
    expect(other.body.some((c: any) => c.id === live.id)).toBe(false);
  });

  it("DELETE terminates (reason deleted), is idempotent, and later calls are 409", async () => {
    const s = await session();
    expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    const got = await api("GET", `/computers/${s.id}`);
    expect(got.body).toMatchObject({ status: "terminated", termination_reason: "deleted" });
    expect(got.body.terminated_at).toMatch(ISO);
    for (const [method, path, body] of [
      ["POST", "keepalive", undefined],
      ["GET", "tabs", undefined],
      ["POST", "tabs", {}],
      ["POST", "tabs/tab_main/switch", undefined],
      ["DELETE", "tabs/tab_main", undefined],
      ["POST", "screenshot", {}],
      ["POST", "navigate", { url: "about:blank" }],
      ["POST", "execute", { action: { type: "wait", ms: 1 } }],
      ["POST", "click", { x: 1, y: 1 }],
    ] as const) {
      const res = await api(method, `/computers/${s.id}/${path}`, body);
      expect([path, res.status]).toEqual([path, 409]);
      expect(res.body.error.code).toBe("conflict");
    }
  });

  it("another organization's session is 404 everywhere", async () => {
    const s = await session();
    const b = { key: inject("apiKeyB") };
    for (const [method, path] of [
      ["GET", ""],
      ["GET", "/status"],
      ["POST", "/keepalive"],
      ["DELETE", ""],
      ["GET", "/tabs"],
      ["POST", "/screenshot"],
      ["POST", "/execute"],
    ] as const) {
      const res = await api(
        method,
        `/computers/${s.id}${path}`,
        path === "/execute" ? { action: { type: "wait", ms: 1 } } : undefined,
        b,
      );
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("ready");
    expect((await api("GET", "/computers/comp_nope")).status).toBe(404);
  });

  it("unknown paths under /computers/{id}/ are JSON 404s; bad actions are 400s", async () => {
    const s = await session();
    const res = await api("GET", `/computers/${s.id}/no/such/thing`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect((await api("POST", `/computers/${s.id}/bogus`, {})).status).toBe(404);
    const deep = await api("POST", `/computers/${s.id}/tabs/tab_main/bogus`, {});
    expect(deep.status).toBe(404);
    expect(deep.body.error.code).toBe("not_found");
    const bad = await api("POST", `/computers/${s.id}/execute`, { action: { type: "teleport" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("action.type");
    const badField = await api("POST", `/computers/${s.id}/execute`, { action: { type: "click", x: "left" } });
    expect(badField.body.error.param).toBe("action.x");
    const file = await api("POST", `/computers/${s.id}/navigate`, { url: "file:///etc/passwd" });
    expect(file.status).toBe(400);
    expect(file.body.error.param).toBe("url");
    expect((await api("GET", `/computers/${s.id}/click`)).status).toBe(405);
    // None of these counted as activity.
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("ready");
  });
});
