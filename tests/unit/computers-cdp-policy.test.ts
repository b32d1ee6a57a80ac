// @needs nothing
// The CDP allow-list (lib/computers/browser/cdp-policy.ts): what a session's
// client may send to the shared pool Chromium, and the token of endpoints.cdp.
import { describe, expect, it } from "vitest";
import { decide, inContext, type CdpView } from "@/lib/computers/browser/cdp-policy";
import { cdpCapability, cdpUrl } from "@/lib/computers/browser/cdp-url";
import { signCapability, verifyCapability } from "@/lib/api/capability-token";

const view: CdpView = {
  contextId: "CTX",
  ownsSession: (id) => id === "S1",
  isBrowserSession: (id) => id === "B1",
  knowsWindow: (id) => id === 7,
};
const send = (method: string, params?: Record<string, unknown>, sessionId?: string) =>
  decide({ id: 1, method, params, sessionId }, view);

describe("decide", () => {
  it("refuses everything on sessions the client did not attach", () => {
    expect(send("Runtime.evaluate", { expression: "1" }, "FOREIGN")).toMatchObject({ do: "refuse" });
    expect(send("Runtime.evaluate", { expression: "1" }, "S1")).toEqual({ do: "forward" });
  });

  it("refuses another context's id anywhere, and puts new targets and cookies in the session's context", () => {
    expect(send("Target.createTarget", { url: "about:blank", browserContextId: "OTHER" })).toMatchObject({
      do: "refuse",
    });
    expect(send("Target.createTarget", { url: "about:blank" })).toEqual({
      do: "forward",
      params: { url: "about:blank", browserContextId: "CTX" },
    });
    expect(send("Storage.getCookies", {})).toEqual({ do: "forward", params: { browserContextId: "CTX" } });
    expect(send("Storage.getCookies", { browserContextId: "OTHER" })).toMatchObject({ do: "refuse" });
    expect(send("Browser.grantPermissions", { permissions: [] })).toMatchObject({
      params: { browserContextId: "CTX" },
    });
  });

  it("presents the session's context as the default: no other contexts exist", () => {
    expect(send("Target.getBrowserContexts")).toEqual({ do: "reply", result: { browserContextIds: [] } });
    expect(send("Target.getTargets")).toEqual({ do: "forward", result: "target_infos" });
  });

  it("checks targets named by id and forces flat sessions", () => {
    expect(send("Target.attachToTarget", { targetId: "T" })).toEqual({
      do: "forward",
      params: { targetId: "T", flatten: true },
      requireTarget: "T",
      result: "attached_session",
    });
    expect(send("Target.closeTarget", { targetId: "T" })).toEqual({ do: "forward", requireTarget: "T" });
    expect(send("Target.getTargetInfo", { targetId: "T" })).toEqual({ do: "forward", requireTarget: "T" });
    expect(send("Target.getTargetInfo")).toEqual({ do: "forward" });
    expect(send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true })).toMatchObject({
      do: "refuse",
    });
    expect(send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: true })).toEqual({
      do: "forward",
    });
    expect(send("Target.detachFromTarget", { sessionId: "FOREIGN" })).toMatchObject({ do: "refuse" });
    expect(send("Target.detachFromTarget", { sessionId: "S1" })).toEqual({ do: "forward" });
  });

  it("refuses what reaches beyond the context, even on the client's own page session", () => {
    for (const method of [
      "Target.createBrowserContext",
      "Target.disposeBrowserContext",
      "Target.exposeDevToolsProtocol",
      "Target.sendMessageToTarget",
      "Browser.crash",
      "Browser.getBrowserCommandLine",
      "SystemInfo.getProcessInfo",
      "Storage.clearDataForOrigin",
      "Page.navigate",
      "Runtime.evaluate",
    ]) {
      expect(send(method, {}), method).toMatchObject({ do: "refuse" });
    }
    expect(send("SystemInfo.getInfo", {}, "S1")).toMatchObject({ do: "refuse" });
    expect(send("Target.createBrowserContext", {}, "S1")).toMatchObject({ do: "refuse" });
  });

  it("rules a browser-target session like the connection itself", () => {
    expect(send("Target.attachToBrowserTarget")).toEqual({ do: "forward", result: "browser_session" });
    expect(send("Target.getTargets", {}, "B1")).toEqual({ do: "forward", result: "target_infos" });
    expect(send("Runtime.evaluate", { expression: "1" }, "B1")).toMatchObject({ do: "refuse" });
    expect(send("Target.createBrowserContext", {}, "B1")).toMatchObject({ do: "refuse" });
    expect(send("Storage.getCookies", {}, "B1")).toEqual({ do: "forward", params: { browserContextId: "CTX" } });
  });

  it("answers Browser.close itself and closes only the client's connection", () => {
    expect(send("Browser.close")).toMatchObject({
      do: "reply",
      result: {},
      close: expect.stringContaining("keeps running"),
    });
    expect(send("Browser.getVersion")).toEqual({ do: "forward" });
  });

  it("lets window calls through only for windows of the client's targets", () => {
    expect(send("Browser.setWindowBounds", { windowId: 7, bounds: {} })).toEqual({ do: "forward" });
    expect(send("Browser.setWindowBounds", { windowId: 8, bounds: {} })).toMatchObject({ do: "refuse" });
    expect(send("Browser.getWindowForTarget", {}, "S1")).toEqual({ do: "forward", result: "window" });
  });

  it("tells target infos of the session's context apart", () => {
    expect(inContext({ targetId: "T", browserContextId: "CTX" }, "CTX")).toBe(true);
    expect(inContext({ targetId: "T", browserContextId: "OTHER" }, "CTX")).toBe(false);
    expect(inContext({ targetId: "B", type: "browser" }, "CTX")).toBe(false);
  });
});

describe("cdp URL and token", () => {
  const secret = "x".repeat(32);
  it("grants one session until its expires_at", () => {
    const expiresAt = Date.now() + 60_000;
    const token = signCapability(cdpCapability("comp_a"), expiresAt, secret);
    expect(verifyCapability(cdpCapability("comp_a"), token, Date.now(), secret)).toBe(true);
    expect(verifyCapability(cdpCapability("comp_b"), token, Date.now(), secret)).toBe(false);
    expect(verifyCapability(cdpCapability("comp_a"), token, expiresAt + 1_000, secret)).toBe(false);
  });

  it("is a ws(s) URL on the public origin", () => {
    const session = { id: "comp_a", expiresAt: new Date(Date.now() + 60_000) };
    expect(cdpUrl(session, "https://cabin.example")).toMatch(
      /^wss:\/\/cabin\.example\/computers\/comp_a\/cdp\?token=\d+\.[\w-]{43}$/,
    );
    expect(cdpUrl(session, "http://127.0.0.1:3000")).toMatch(
      /^ws:\/\/127\.0\.0\.1:3000\/computers\/comp_a\/cdp\?token=/,
    );
  });
});
