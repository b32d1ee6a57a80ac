// @needs nothing
// The pure rules behind docs/limits.md: the JSON shape scan, the WebSocket handshake
// check, per-address slots, the sign-up policy, the tab limit and the JSON surfaces.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { jsonSurfaceOf, securityHeaders } from "@/lib/api/edge";
import { JsonShapeScanner, MAX_JSON_DEPTH, MAX_JSON_VALUES, scansAsJson } from "@/lib/api/json-shape";
import { AddressSlots, handshakeProblem } from "@/lib/api/upgrade-guard";
import { signupRefusal } from "@/lib/auth/signup-policy";
import { TabSet } from "@/lib/computers/browser/tabs";

const scan = (...chunks: string[]) => {
  const scanner = new JsonShapeScanner();
  for (const chunk of chunks) {
    const refusal = scanner.push(Buffer.from(chunk));
    if (refusal) return refusal;
  }
  return null;
};

describe("JSON shape scan", () => {
  it("lets the deepest allowed nesting through and refuses one level more, across chunk boundaries", () => {
    expect(scan("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH))).toBeNull();
    const deep = "[".repeat(MAX_JSON_DEPTH + 1);
    const refusal = scan(deep.slice(0, 10), deep.slice(10));
    expect(refusal?.status).toBe(400);
    expect(refusal?.message).toContain(`deeper than ${MAX_JSON_DEPTH}`);
  });
  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ s: `\\"${"[".repeat(500)}` });
    expect(scan(text.slice(0, 7), text.slice(7))).toBeNull();
  });
  it("depth goes back down: many shallow objects side by side pass", () => {
    expect(scan(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1, { b: 2 }] }))))).toBeNull();
  });
  it("refuses more values than MAX_JSON_VALUES", () => {
    const refusal = scan("[", "0,".repeat(MAX_JSON_VALUES + 1), "0]");
    expect(refusal?.message).toContain(`more than ${MAX_JSON_VALUES}`);
  });
  it("scans JSON, forms and untyped bodies, not uploads", () => {
    expect(scansAsJson(undefined)).toBe(true);
    expect(scansAsJson("application/json; charset=utf-8")).toBe(true);
    expect(scansAsJson("application/x-www-form-urlencoded")).toBe(true);
    expect(scansAsJson("multipart/form-data; boundary=x")).toBe(false);
    expect(scansAsJson("application/octet-stream")).toBe(false);
  });
});

const upgradeRequest = (headers: Record<string, string>, method = "GET") =>
  ({
    method,
    headers: {
      upgrade: "websocket",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
      ...headers,
    },
  }) as unknown as IncomingMessage;

describe("WebSocket handshake check", () => {
  it("accepts RFC 6455's example and names what is wrong otherwise", () => {
    expect(handshakeProblem(upgradeRequest({}))).toBeNull();
    expect(handshakeProblem(upgradeRequest({ upgrade: "h2c" }))?.message).toContain("Upgrade: websocket");
    expect(handshakeProblem(upgradeRequest({}, "POST"))?.status).toBe(405);
    expect(handshakeProblem(upgradeRequest({ "sec-websocket-key": "short" }))?.message).toContain("Sec-WebSocket-Key");
    const version = handshakeProblem(upgradeRequest({ "sec-websocket-version": "8" }));
    expect(version?.status).toBe(426);
    expect(version?.headers?.["sec-websocket-version"]).toBe("13");
  });
});

describe("per-address slots", () => {
  it("refuses past the limit per address and frees on give", () => {
    const slots = new AddressSlots(2);
    expect([slots.take("a"), slots.take("a"), slots.take("a"), slots.take("b")]).toEqual([true, true, false, true]);
    slots.give("a");
    expect(slots.take("a")).toBe(true);
    slots.give("b");
    expect(slots.heldBy("b")).toBe(0);
  });
});

describe("sign-up policy", () => {
  it("always lets the first account in; then open, invite and closed differ", () => {
    for (const policy of ["open", "invite", "closed"] as const)
      expect(signupRefusal(policy, { firstAccount: true, invited: false })).toBeNull();
    expect(signupRefusal("open", { firstAccount: false, invited: false })).toBeNull();
    expect(signupRefusal("invite", { firstAccount: false, invited: true })).toBeNull();
    expect(signupRefusal("invite", { firstAccount: false, invited: false })).toContain("invitation only");
    expect(signupRefusal("closed", { firstAccount: false, invited: true })).toContain("closed");
  });
});

describe("tab limit", () => {
  it("has room up to the limit, then throws a 409-mapped conflict naming the setting", () => {
    const tabs = new TabSet<object>(2);
    tabs.add({});
    expect(tabs.hasRoom()).toBe(true);
    tabs.add({});
    expect(tabs.hasRoom()).toBe(false);
    expect(() => tabs.assertRoom()).toThrow(/BROWSER_MAX_TABS_PER_SESSION is 2/);
  });
});

describe("JSON surfaces", () => {
  it("maps prefixes in any case to their envelope, and pages to none", () => {
    expect(jsonSurfaceOf("/V1/models")).toBe("openai");
    expect(jsonSurfaceOf("/COMPUTERS")).toBe("api");
    expect(jsonSurfaceOf("/agent/anything?x=1")).toBe("api");
    expect(jsonSurfaceOf("/Api/health")).toBe("api");
    expect(jsonSurfaceOf("/sessions")).toBeNull();
    expect(jsonSurfaceOf("/agents")).toBeNull();
  });
  it("the dashboard's CSP names where scripts may come from", () => {
    expect(securityHeaders(false)["content-security-policy"]).toMatch(/script-src 'self'/);
    expect(securityHeaders(false)["content-security-policy"]).not.toContain("unsafe-eval");
  });
});
