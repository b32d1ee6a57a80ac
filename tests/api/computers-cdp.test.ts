// @needs server chromium
// endpoints.cdp end to end: Playwright's connectOverCDP and Puppeteer's connect
// against the running server, isolation between two sessions sharing the pool
// Chromium, authentication of the upgrade, and the session's lifetime.
import { chromium, type Browser } from "playwright-core";
import puppeteer from "puppeteer-core";
import { WebSocket } from "ws";
import { afterEach, describe, expect, inject, it } from "vitest";
import { api, createSession, execute, setBrowserState, useSessionSuite, waitFor } from "./computers-fixtures";
import { createOrgKey, startServer } from "./harness";

const suite = useSessionSuite();
const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close().catch(() => {})));
});

async function connect(url: string, headers?: Record<string, string>): Promise<Browser> {
  const browser = await chromium.connectOverCDP(url, { headers, timeout: 30_000 });
  open.push(browser);
  return browser;
}

const tabUrls = async (id: string) =>
  ((await api("GET", `/computers/${id}/tabs`)).body.result.tabs as { url: string }[]).map((t) => t.url);

/** Opens a raw WebSocket; resolves with the HTTP status and JSON body when the upgrade is refused. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on("open", () => {
      ws.close();
      resolve({ status: 101, body: null });
    });
    ws.on("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    ws.on("error", (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

/** A bare CDP client on one WebSocket: send() resolves with the result or rejects with the error message. */
async function rawCdp(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => (ws.on("open", resolve), ws.on("error", reject)));
  open.push({ close: async () => ws.close() });
  let nextId = 1;
  const waiting = new Map<number, { resolve(v: any): void; reject(e: Error): void }>();
  ws.on("message", (data) => {
    const message = JSON.parse(data.toString());
    const w = waiting.get(message.id);
    if (!w) return;
    waiting.delete(message.id);
    if (message.error) w.reject(new Error(message.error.message));
    else w.resolve(message.result);
  });
  return {
    send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<any> {
      const id = nextId++;
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
  };
}

describe("CDP endpoint", () => {
  it("connectOverCDP sees the session's context with its cookie; a page it opens is in the tab list", async () => {
    const s = await suite.session();
    expect(s.endpoints.cdp).toMatch(new RegExp(`^ws://[^/]+/computers/${s.id}/cdp\\?token=`));
    await setBrowserState(s.id, suite.site, "alpha");

    const browser = await connect(s.endpoints.cdp);
    expect(browser.contexts()).toHaveLength(1);
    const context = browser.contexts()[0]!;
    expect(context.pages().map((p) => p.url())).toEqual([`${suite.site.url}/set-state?v=alpha`]);
    expect((await context.cookies()).find((c) => c.name === "c")?.value).toBe("alpha");

    const page = await context.newPage();
    await page.goto(`${suite.site.url}/page?n=cdp`);
    await waitFor(
      "the CDP page in the tab list",
      () => tabUrls(s.id),
      (urls) => urls.includes(`${suite.site.url}/page?n=cdp`),
    );
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("running");
  });

  it("a second session's client sees none of the first's pages or cookies and cannot reach its targets", async () => {
    const a = await suite.session();
    const b = await suite.session();
    await setBrowserState(a.id, suite.site, "secret");
    const browserA = await connect(a.endpoints.cdp);
    const pageA = browserA.contexts()[0]!.pages()[0]!;
    const infoA = (await (await browserA.contexts()[0]!.newCDPSession(pageA)).send("Target.getTargetInfo"))
      .targetInfo as {
      targetId: string;
      browserContextId: string;
    };

    const browserB = await connect(b.endpoints.cdp);
    const contextB = browserB.contexts()[0]!;
    expect(browserB.contexts()).toHaveLength(1);
    expect(contextB.pages().map((p) => p.url())).toEqual(["about:blank"]);
    expect((await contextB.cookies()).map((c) => c.value)).not.toContain("secret");

    // Raw CDP on B's endpoint, as any client library would speak it.
    const raw = await rawCdp(b.endpoints.cdp);
    const { targetInfos } = await raw.send("Target.getTargets");
    expect(targetInfos.length).toBeGreaterThan(0);
    for (const t of targetInfos) expect(t.browserContextId).not.toBe(infoA.browserContextId);
    expect((await raw.send("Target.getBrowserContexts")).browserContextIds).toEqual([]);
    await expect(raw.send("Target.attachToTarget", { targetId: infoA.targetId, flatten: true })).rejects.toThrow(
      /No target/,
    );
    await expect(raw.send("Target.closeTarget", { targetId: infoA.targetId })).rejects.toThrow(/No target/);
    await expect(
      raw.send("Target.createTarget", { url: "about:blank", browserContextId: infoA.browserContextId }),
    ).rejects.toThrow(/not this session/);
    await expect(raw.send("Storage.getCookies", { browserContextId: infoA.browserContextId })).rejects.toThrow(
      /not this session/,
    );
    await expect(raw.send("Target.createBrowserContext")).rejects.toThrow(/not available/);
    await expect(raw.send("Browser.crash")).rejects.toThrow(/not available/);
    // A browser-target session (what Playwright's newCDPSession uses) is filtered the same way.
    const { sessionId: rootAlias } = await raw.send("Target.attachToBrowserTarget");
    await expect(
      raw.send("Target.attachToTarget", { targetId: infoA.targetId, flatten: true }, rootAlias),
    ).rejects.toThrow(/No target/);
    await expect(raw.send("Target.createBrowserContext", {}, rootAlias)).rejects.toThrow(/not available/);

    // A page B opens stays in B; A's tabs are untouched and A keeps working.
    await (await contextB.newPage()).goto(`${suite.site.url}/page?n=b`);
    expect(await tabUrls(a.id)).not.toContain(`${suite.site.url}/page?n=b`);
    expect(
      browserA
        .contexts()[0]!
        .pages()
        .map((p) => p.url()),
    ).not.toContain(`${suite.site.url}/page?n=b`);
    // A new tab of A (through the API) never shows up in B.
    await api("POST", `/computers/${a.id}/tabs`, { url: `${suite.site.url}/page?n=a2` });
    await waitFor(
      "A's new tab in A's client",
      async () =>
        browserA
          .contexts()[0]!
          .pages()
          .map((p) => p.url()),
      (u) => u.includes(`${suite.site.url}/page?n=a2`),
    );
    expect(contextB.pages().map((p) => p.url())).not.toContain(`${suite.site.url}/page?n=a2`);
  });

  // Also: the API key header works.
  it("authenticates: bad, foreign and missing credentials are 401, another org's key 404", async () => {
    const a = await suite.session();
    const b = await suite.session();
    const base = a.endpoints.cdp.split("?")[0] as string;
    const tokenB = new URL(b.endpoints.cdp).searchParams.get("token")!;
    const bad = await upgradeStatus(`${base}?token=1.${"A".repeat(43)}`);
    expect(bad).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } });
    expect((await upgradeStatus(`${base}?token=${tokenB}`)).status).toBe(401);
    expect((await upgradeStatus(base)).status).toBe(401);
    expect((await upgradeStatus(base, { authorization: `Bearer ${inject("apiKeyB")}` })).status).toBe(404);
    expect(
      (
        await upgradeStatus(base.replace(a.id, "comp_000000000000000000000000"), {
          authorization: `Bearer ${inject("apiKey")}`,
        })
      ).status,
    ).toBe(404);

    const browser = await connect(base, { authorization: `Bearer ${inject("apiKey")}` });
    expect(browser.contexts()[0]!.pages()).toHaveLength(1);
    // The http(s) form: clients fetch /json/version for webSocketDebuggerUrl.
    const discovered = await fetch(`${a.endpoints.cdp.split("?")[0].replace(/^ws/, "http")}/json/version`, {
      headers: { authorization: `Bearer ${inject("apiKey")}` },
    });
    expect(discovered.status).toBe(200);
    expect((await discovered.json()).webSocketDebuggerUrl).toMatch(
      new RegExp(`^ws://[^/]+/computers/${a.id}/cdp\\?token=`),
    );
    expect((await fetch(`${base.replace(/^ws/, "http")}/json/version`)).status).toBe(401);
    const viaHttp = await connect(a.endpoints.cdp.replace(/^ws/, "http"));
    expect(viaHttp.contexts()[0]!.pages()).toHaveLength(1);

    await api("DELETE", `/computers/${b.id}`);
    expect((await upgradeStatus(b.endpoints.cdp)).status).toBe(409);
  });

  it("browser.close() only disconnects: the session stays running and usable", async () => {
    const s = await suite.session();
    const browser = await connect(s.endpoints.cdp);
    await browser.contexts()[0]!.pages()[0]!.goto(`${suite.site.url}/page?n=before`);
    await browser.close();
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("running");
    const done = await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/page?n=after` });
    expect(done.status).toBe("success");
    expect(await tabUrls(s.id)).toContain(`${suite.site.url}/page?n=after`);
  });

  it("the session's lifetime closes the socket with the reason; its token then expires (401)", async () => {
    const s = await suite.session({ timeout_seconds: 3 });
    const ws = new WebSocket(s.endpoints.cdp);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise((resolve, reject) => (ws.on("open", resolve), ws.on("error", reject)));
    ws.send(JSON.stringify({ id: 1, method: "Browser.getVersion" }));
    expect(await closed).toEqual({ code: 4000, reason: "session ended: max_lifetime" });
    await waitFor(
      "token past expires_at",
      async () => Date.now(),
      (now) => now > new Date(s.expires_at).getTime() + 1_000,
    );
    expect((await upgradeStatus(s.endpoints.cdp)).status).toBe(401);
  });

  // Also: disconnects cleanly.
  it("Puppeteer connect({browserWSEndpoint}) sees the session's page, opens pages into its tab list", async () => {
    const s = await suite.session();
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/page?n=pup` });
    const browser = await puppeteer.connect({ browserWSEndpoint: s.endpoints.cdp, defaultViewport: null });
    open.push({ close: () => browser.disconnect() });
    const pages = await browser.pages();
    expect(pages.map((p) => p.url())).toEqual([`${suite.site.url}/page?n=pup`]);
    expect(await pages[0]!.title()).toBe("page pup");
    const page = await browser.newPage();
    await page.goto(`${suite.site.url}/page?n=pup2`);
    await waitFor(
      "the Puppeteer page in the tab list",
      () => tabUrls(s.id),
      (urls) => urls.includes(`${suite.site.url}/page?n=pup2`),
    );
    await browser.close();
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("running");
    expect((await execute(s.id, { type: "get_html_content" })).status).toBe("success");
  });

  // Also: the upgrade is a 501 saying why.
  it("is off only when the operator says so (SESSION_CDP=off): no endpoint", async () => {
    const server = await startServer({ env: { SESSION_CDP: "off" } });
    try {
      const target = { base: server.url, key: await createOrgKey(server, "CDP Off Org") };
      const s = await createSession({}, target);
      expect(s.endpoints.cdp).toBeUndefined();
      const refused = await upgradeStatus(`${server.url.replace(/^http/, "ws")}/computers/${s.id}/cdp`, {
        authorization: `Bearer ${target.key}`,
      });
      expect(refused).toMatchObject({ status: 501, body: { error: { code: "not_implemented" } } });
      expect(refused.body.error.message).toMatch(/SESSION_CDP=off/);
    } finally {
      await server.destroy();
    }
  }, 300_000); // a second server: its start takes minutes on a machine as loaded as CI
});
