// @needs server chromium
// POST /computers/{id}/change-proxy (docs/computers.md "Changing a session's proxy"): a live browser session switches
// to an upstream proxy (credentials in the URL, never shown back) and back to direct. Its
// context stays, so cookies, storage and open tabs survive; http goes through the
// proxy in absolute form and https/WebSocket through CONNECT. The proxy's own address
// must pass the egress policy (Cabin's own port never does), and a proxy URL that is
// not http://host:port is a 400 naming proxy_url.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, execute, readBrowserState, setBrowserState, useSessionSuite } from "./computers-fixtures";
import { PROXY_PASS, PROXY_USER, startProxy, type Proxy } from "./test-proxy";

const suite = useSessionSuite();
let proxy: Proxy;
beforeAll(async () => {
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy?.close();
});

const changeProxy = (id: string, proxy_url: string | null) =>
  api("POST", `/computers/${id}/change-proxy`, { proxy_url });
const tabUrls = async (id: string) =>
  ((await api("GET", `/computers/${id}/tabs`)).body.result.tabs as { url: string }[]).map((t) => t.url).sort();

describe("change-proxy", () => {
  it("switches a live session to a proxy and back to direct; cookies, storage and tabs survive", async () => {
    const s = await suite.session();
    await setBrowserState(s.id, suite.site, "kept");
    expect((await execute(s.id, { type: "new_tab", url: `${suite.site.url}/page?n=second` })).status).toBe("success");
    const tabsBefore = await tabUrls(s.id);

    const via = await changeProxy(s.id, `http://${PROXY_USER}:${PROXY_PASS}@127.0.0.1:${proxy.port}`);
    expect(via.status).toBe(200);
    expect(via.body).toMatchObject({ status: "success", result: { proxy: `http://127.0.0.1:${proxy.port}` } });
    expect(JSON.stringify(via.body)).not.toContain(PROXY_PASS);
    expect(await tabUrls(s.id)).toEqual(tabsBefore);
    expect(await readBrowserState(s.id, suite.site)).toBe("kept|kept|kept");
    expect(proxy.seen).toContain(`${suite.site.url}/read-state`);
    expect(proxy.rejected).toBe(0);

    // https (and WebSockets) go through the proxy's CONNECT; the site speaks no TLS, so only the tunnel is asked for.
    const siteHost = new URL(suite.site.url).host;
    await execute(s.id, { type: "go_to_url", url: `https://${siteHost}/` });
    expect(proxy.seen).toContain(`CONNECT ${siteHost}`);

    const direct = await changeProxy(s.id, null);
    expect(direct.body).toMatchObject({ status: "success", result: { proxy: null } });
    const seen = proxy.seen.length;
    const back = await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/page?n=direct` });
    expect(back, JSON.stringify(back)).toMatchObject({ status: "success" });
    const got = await execute(s.id, { type: "get_html_content" });
    expect(got, JSON.stringify(got)).toMatchObject({ status: "success" });
    expect(got.result.html_content).toContain("page direct");
    expect(suite.site.hits).toContain("/page?n=direct");
    // Only this page is asked about: Chromium may still finish a request of the proxied time (a retried CONNECT, a
    // favicon) through the proxy after the switch.
    expect(proxy.seen.slice(seen).filter((line) => line.includes("n=direct"))).toEqual([]);
    expect(await readBrowserState(s.id, suite.site)).toBe("kept|kept|kept");
  });

  // Also: an unreachable proxy fails navigations by name.
  it("refuses Cabin itself as the proxy and a non-http proxy URL", async () => {
    const s = await suite.session();
    const self = await changeProxy(s.id, `${inject("baseUrl")}`);
    expect(self.status).toBe(400);
    expect(self.body.error).toMatchObject({ param: "proxy_url" });
    expect(self.body.error.message).toMatch(/egress policy: .*Cabin itself/);
    for (const bad of ["socks5://127.0.0.1:1080", "http://127.0.0.1:8080/path", "not a url", 42]) {
      const res = await api("POST", `/computers/${s.id}/change-proxy`, { proxy_url: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error.param, String(bad)).toBe("proxy_url");
    }
    // A port nothing listens on: the navigation fails with Chromium's name for it.
    expect((await changeProxy(s.id, "http://127.0.0.1:9")).body.status).toBe("success");
    const failed = await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/page?n=x` });
    expect(failed).toMatchObject({ status: "error" });
    expect(failed.error_message).toMatch(/ERR_PROXY_CONNECTION_FAILED/);
  });
});
