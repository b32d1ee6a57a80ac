// @needs server chromium
// What clients nobody here wrote expect of /computers (docs/contract.md):
// the session object's extra fields, public capability screenshot URLs, retry
// hints, JSON 405s, unknown body fields refused. The icons and links: public-links.test.ts.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { call } from "./client";
import { api, createSession } from "./computers-fixtures";

const created: { id: string; key?: string; base?: string }[] = [];
async function session(body: Record<string, unknown> = {}, target: { key?: string; base?: string } = {}) {
  const s = await createSession(body, target);
  created.push({ id: s.id, ...target });
  return s;
}

afterAll(async () => {
  await Promise.all(created.map(({ id, key, base }) => api("DELETE", `/computers/${id}`, undefined, { key, base })));
});

describe("session object (docs/contract.md: idle_timeout_enabled, endpoints, clamped idle deadline)", () => {
  it("create, read, status and keepalive all carry idle_timeout_enabled and endpoints", async () => {
    const s = await session({ idle_timeout_enabled: false });
    expect(s).toMatchObject({ auto_kill: false, idle_timeout_enabled: false, endpoints: {} });
    for (const path of ["", "/status"]) {
      const got = await api("GET", `/computers/${s.id}${path}`);
      expect(got.body).toMatchObject({ idle_timeout_enabled: false, endpoints: {} });
    }
    const kept = await api("POST", `/computers/${s.id}/keepalive`);
    expect(kept.body).toMatchObject({ auto_kill: false, idle_timeout_enabled: false, endpoints: {} });
    const on = await session();
    expect(on).toMatchObject({ auto_kill: true, idle_timeout_enabled: true });
  });

  it("idle_expires_at is never later than expires_at, at creation and after keepalive", async () => {
    const s = await session({ timeout_seconds: 60, inactivity_timeout_seconds: 120 });
    expect(s.idle_expires_at).toBe(s.expires_at);
    const kept = await api("POST", `/computers/${s.id}/keepalive`);
    expect(kept.status).toBe(200);
    expect(kept.body.idle_expires_at).toBe(s.expires_at);
    expect((await api("GET", `/computers/${s.id}`)).body.idle_expires_at).toBe(s.expires_at);
  });
});

describe("unknown body fields are a 400 naming them", () => {
  it("a typo in the create body creates no session", async () => {
    const before = (await api("GET", "/computers")).body.length;
    const res = await api("POST", "/computers", { inactivty_timeout_seconds: 30 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_request", param: "inactivty_timeout_seconds" });
    expect(res.body.error.message).toContain("Unknown field 'inactivty_timeout_seconds'");
    const nested = await api("POST", "/computers", { display: { width: 800, hieght: 600 } });
    expect(nested.body.error.param).toBe("display.hieght");
    expect((await api("GET", "/computers")).body.length).toBe(before);
  });

  it("every action write refuses unknown fields; the documented aliases still work", async () => {
    const s = await session();
    const cases: [string, unknown, string][] = [
      ["execute", { action: { type: "wait", ms: 1, speed: 2 } }, "action.speed"],
      ["execute", { action: { type: "wait", ms: 1 }, tab: "tab_main" }, "tab"],
      ["execute", { type: "wait", ms: 1, later: true }, "later"],
      ["batch", { actions: [{ type: "wait", ms: 1 }], stop_on_error: true }, "stop_on_error"],
      ["batch", { actions: [{ type: "wait", ms: 1, extra: 1 }] }, "actions[0].extra"],
      ["click", { x: 1, y: 1, buton: "left" }, "buton"],
      ["navigate", { url: "about:blank", wait_until: "load" }, "wait_until"],
      ["viewport", { width: 800, height: 600, dpr: 2 }, "dpr"],
      ["screenshot", { base_64: true }, "base_64"],
      ["tabs", { url: "about:blank", active: true }, "active"],
    ];
    for (const [path, body, param] of cases) {
      const res = await api("POST", `/computers/${s.id}/${path}`, body);
      expect([path, res.status, res.body.error?.param]).toEqual([path, 400, param]);
      expect(res.body.error.message).toMatch(/^Unknown field/);
    }
    const aliases = await api("POST", `/computers/${s.id}/execute`, {
      action: { type: "scroll", scroll_x: 0, scroll_y: 10 },
    });
    expect(aliases.body.status).toBe("success");
    const bare = await api("POST", `/computers/${s.id}/execute`, { type: "wait", duration_ms: 1 });
    expect(bare.body.status).toBe("success");
    // Fields the public SDK's Action type carries are not "unknown": its clients work unmodified.
    const sdk = await api("POST", `/computers/${s.id}/execute`, {
      action: { type: "get_html_content", include_context: true, request_id: "sdk-1", auto_detect_encoding: true },
    });
    expect([sdk.status, sdk.body.status]).toEqual([200, "success"]);
    const sdkTabs = await api("POST", `/computers/${s.id}/execute`, {
      action: { type: "list_tabs", include_context: false },
    });
    expect([sdkTabs.status, sdkTabs.body.status]).toEqual([200, "success"]);
  });
});

describe("retry hints (x-should-retry, retry-after)", () => {
  it("false on /computers answers a retry cannot change", async () => {
    const s = await session();
    await api("DELETE", `/computers/${s.id}`);
    const answers = [
      await api("POST", "/computers", { kind: "vm" }), // 400
      await call("GET", "/computers", { key: null }), // 401
      await api("GET", "/computers/comp_000000000000000000000000"), // 404
      await api("POST", `/computers/${s.id}/keepalive`), // 409
      await api("PUT", "/computers"), // 405
      await api("GET", `/computers/${s.id}/screencast`), // 409: the live view of an ended session
    ];
    expect(answers.map((r) => r.status)).toEqual([400, 401, 404, 409, 405, 409]);
    for (const res of answers) expect([res.status, res.headers.get("x-should-retry")]).toEqual([res.status, "false"]);
  });

  it("false on /v1 401 and 404 too (one renderer)", async () => {
    const unauthorized = await call("GET", "/v1/models", { key: "sk-wrong" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("x-should-retry")).toBe("false");
    const missing = await call("GET", "/v1/models/svc.nope");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-should-retry")).toBe("false");
    expect(missing.body.error.type).toBe("not_found_error");
  });
});

describe("a wrong method is a JSON 405 with an allow header", () => {
  it.each([
    ["GET", "/computers/comp_x/tabs/tab_main", "DELETE"],
    ["PUT", "/computers", "GET, POST"],
    ["GET", "/computers/comp_x/keepalive", "POST"],
    ["PATCH", "/computers/comp_x", "GET, DELETE"],
    ["DELETE", "/computers/comp_x/status", "GET"],
    ["GET", "/computers/comp_x/execute", "POST"],
    ["GET", "/computers/comp_x/batch", "POST"],
    ["GET", "/computers/comp_x/tabs/tab_main/switch", "POST"],
    ["DELETE", "/computers/comp_x/tabs", "GET, POST"],
    ["GET", "/computers/comp_x/exec/sync", "POST"],
    ["POST", "/computers/comp_x/screenshots/shot_1_0123456789ab.png", "GET"],
  ])("%s %s → 405, allow: %s", async (method, path, allow) => {
    const res = await call(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.body.error).toMatchObject({ code: "method_not_allowed" });
    expect(res.body.error.message).toContain(method);
  });
});

describe("screenshot_url is a capability URL", () => {
  const secret = () => readFileSync(path.join(inject("dataDir"), "secret"), "utf8").trim();
  // The token format of screenshotToken, rebuilt here to craft expired and foreign tokens.
  const sign = (id: string, name: string, expSeconds: number) =>
    `${expSeconds}.${createHmac("sha256", secret()).update(`cabin.screenshot-url.v1\0${id}\0${name}\0${expSeconds}`).digest("base64url")}`;

  it("fetches without the key; refuses a tampered, foreign-file or expired token; the key still works", async () => {
    const s = await session();
    const first = (await api("POST", `/computers/${s.id}/screenshot`, {})).body.result.screenshot_url as string;
    const second = (await api("POST", `/computers/${s.id}/execute`, { action: { type: "screenshot", format: "jpeg" } }))
      .body.result.screenshot_url as string;
    const url = new URL(first);
    expect(url.origin).toBe(inject("baseUrl"));
    expect(url.pathname).toMatch(new RegExp(`^/computers/${s.id}/screenshots/shot_\\d+_[0-9a-f]{12}\\.png$`));
    const token = url.searchParams.get("token")!;
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    // Expires with the file, 15 minutes on.
    expect(Number(token.split(".")[0]) * 1000 - Date.now()).toBeGreaterThan(14 * 60_000);

    const plain = await fetch(first);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await plain.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    expect((await fetch(second)).headers.get("content-type")).toBe("image/jpeg");

    const refused = async (target: string, message: RegExp) => {
      const res = await fetch(target);
      expect([target, res.status]).toEqual([target, 401]);
      const body = await res.json();
      expect(body.error.code).toBe("unauthorized");
      expect(body.error.message).toMatch(message);
    };
    const name = url.pathname.split("/").pop()!;
    const otherName = new URL(second).pathname.split("/").pop()!;
    const [exp, mac] = token.split(".");
    const withToken = (t: string, pathname = url.pathname) => `${url.origin}${pathname}?token=${encodeURIComponent(t)}`;
    await refused(`${url.origin}${url.pathname}`, /Missing API key or token/);
    await refused(
      withToken(`${exp}.${mac.slice(0, 10)}${mac[10] === "A" ? "B" : "A"}${mac.slice(11)}`),
      /Invalid or expired/,
    );
    await refused(withToken(`${Number(exp) + 3600}.${mac}`), /Invalid or expired/);
    await refused(withToken(token, url.pathname.replace(name, otherName)), /Invalid or expired/);
    await refused(withToken(sign(s.id, name, Math.floor(Date.now() / 1000) - 1)), /Invalid or expired/);
    // The same signer, with a future expiry, is accepted: the refusals above are about the token, not the signer.
    expect((await fetch(withToken(sign(s.id, name, Math.floor(Date.now() / 1000) + 60)))).status).toBe(200);

    const bare = `${url.origin}${url.pathname}`;
    expect((await fetch(bare, { headers: { authorization: `Bearer ${inject("apiKey")}` } })).status).toBe(200);
    expect((await fetch(bare, { headers: { authorization: `Bearer ${inject("apiKeyB")}` } })).status).toBe(404);
  });
});
