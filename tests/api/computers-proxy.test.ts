// @needs server chromium desktop
// use_advanced_proxy routes a session's traffic (loopback included) through the
// operator's upstream proxy, with basic auth; other sessions go direct; the
// proxy's credentials never appear in responses or logs.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { PROXY_PASS as PASS, PROXY_USER as USER, startProxy, type Proxy } from "./test-proxy";
import { api, createSession, execute, html, startSite, type Site, type Target } from "./computers-fixtures";

let proxy: Proxy;
let site: Site;
let server: TestServer;
let target: Target;

beforeAll(async () => {
  proxy = await startProxy();
  site = await startSite();
  server = await startServer({
    env: { ADVANCED_PROXY_URL: `http://${USER}:${PASS}@127.0.0.1:${proxy.port}`, LOG_LEVEL: "debug" },
  });
  target = { base: server.url, key: await createOrgKey(server, "Proxy Org") };
});

afterAll(async () => {
  await server?.destroy();
  await proxy?.close();
  await site?.close();
});

describe("advanced proxy", () => {
  it("sends the flagged session's requests through the proxy, with credentials", async () => {
    const s = await createSession({ use_advanced_proxy: true }, target);
    expect(s.use_advanced_proxy).toBe(true);
    const nav = await execute(s.id, { type: "go_to_url", url: `${site.url}/page?n=proxied` }, target);
    expect(nav.status).toBe("success");
    expect(await html(s.id, target)).toContain("page proxied");
    expect(proxy.seen).toContain(`${site.url}/page?n=proxied`);
    // New tabs of the same session use it too.
    await api("POST", `/computers/${s.id}/tabs`, { url: `${site.url}/page?n=tab` }, target);
    expect(proxy.seen).toContain(`${site.url}/page?n=tab`);
    await api("DELETE", `/computers/${s.id}`, undefined, target);
  });

  it("leaves sessions without the flag direct", async () => {
    const s = await createSession({}, target);
    const before = proxy.seen.length;
    await execute(s.id, { type: "go_to_url", url: `${site.url}/page?n=direct` }, target);
    expect(await html(s.id, target)).toContain("page direct");
    expect(site.hits).toContain("/page?n=direct");
    // Only this session's page is asked about: the previous test's proxied session may still finish a request (a
    // favicon) through the proxy while its context closes after DELETE answered.
    expect(proxy.seen.slice(before).filter((line) => line.includes("n=direct"))).toEqual([]);
    await api("DELETE", `/computers/${s.id}`, undefined, target);
  });

  it("refuses the proxy on desktop sessions", async () => {
    const res = await api("POST", "/computers", { kind: "desktop", use_advanced_proxy: true }, target);
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe("use_advanced_proxy");
  });

  it("never shows the credentials in responses or logs", async () => {
    const s = await createSession({ use_advanced_proxy: true }, target);
    const responses = [
      JSON.stringify(s),
      JSON.stringify((await api("GET", `/computers/${s.id}`, undefined, target)).body),
      JSON.stringify((await api("GET", "/computers", undefined, target)).body),
      JSON.stringify(await (await fetch(`${server.url}/api/health`)).json()),
      JSON.stringify(await execute(s.id, { type: "go_to_url", url: "http://127.0.0.1:1/" }, target)),
    ];
    await api("DELETE", `/computers/${s.id}`, undefined, target);
    for (const text of responses) {
      expect(text).not.toContain(PASS);
      expect(text).not.toContain(USER);
    }
    const log = readFileSync(server.logFile, "utf8");
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(PASS);
  });
});
