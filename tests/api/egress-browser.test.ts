// @needs server chromium
// Browser egress (docs/security.md "Session egress"): every request of a session goes through its
// context's EgressProxy, which resolves names itself and asks the policy about the
// address. A server whose allow-list names only the test site's exact host:port: the
// session loads that site, but not a service on the host's loopback (by address, by
// `localhost`, by a redirect, with https, with fetch or a WebSocket) nor Cabin itself;
// the shared test server (SESSION_EGRESS_ALLOW=127.0.0.0/8) reaches the same service.
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createSession, execute, html, waitFor, type Target } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { listenOnLoopback, type LoopbackServer } from "./loopback";

let secret: LoopbackServer;
/**
 * TCP connections the secret service accepted: the page's fetch and WebSocket fail either way (CORS, no upgrade), this
 * does not.
 */
let secretConnections = 0;
let site: LoopbackServer;
let server: TestServer;
let target: Target;

// A page that tries the secret service with fetch and a WebSocket and writes what happened.
const probePage = (secretUrl: string) => `<!doctype html><title>probe</title><body><script>
  const say = (t) => document.body.append(" " + t + ";");
  fetch(${JSON.stringify(secretUrl)}).then((r) => r.text()).then((t) => say("FETCH:" + t), () => say("FETCH:failed"));
  const ws = new WebSocket(${JSON.stringify(secretUrl.replace("http", "ws"))});
  ws.onopen = () => say("WS:open"); ws.onerror = () => say("WS:failed");
</script></body>`;

beforeAll(async () => {
  const secretServer = createServer((_req, res) => res.end("host-only-secret")).on(
    "connection",
    () => secretConnections++,
  );
  secret = await listenOnLoopback(secretServer);
  site = await listenOnLoopback(
    createServer((req, res) => {
      if (req.url === "/redirect") return void res.writeHead(302, { location: `${secret.url}/` }).end();
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(req.url === "/probe" ? probePage(secret.url) : "<title>allowed</title><h1>ALLOWED-SITE</h1>");
    }),
  );
  server = await startServer({ env: { SESSION_EGRESS: "default", SESSION_EGRESS_ALLOW: new URL(site.url).host } });
  target = { base: server.url, key: await createOrgKey(server, "Egress Org") };
}, 120_000);
afterAll(async () => {
  await server?.destroy();
  await Promise.all([secret?.close(), site?.close()]);
});

const secretPort = () => new URL(secret.url).port;

describe("browser egress with an allow-list naming only the test site", () => {
  // Also: naming the policy.
  it("loads the allowed site; refuses the host's loopback by address, name, redirect and https", async () => {
    const s = await createSession({}, target);
    const ok = await execute(s.id, { type: "go_to_url", url: `${site.url}/` }, target);
    expect(ok).toMatchObject({ status: "success", result: { http_status: 200 } });
    expect(await html(s.id, target)).toContain("ALLOWED-SITE");

    for (const url of [
      `${secret.url}/`,
      `http://localhost:${secretPort()}/`,
      `${site.url}/redirect`,
      `https://127.0.0.1:${secretPort()}/`,
    ]) {
      const res = await execute(s.id, { type: "go_to_url", url }, target);
      expect(res, url).toMatchObject({ status: "error" });
      expect(res.error_message, url).toMatch(
        /refused: blocked by the session egress policy: .*(the host's loopback|an address of the host)/,
      );
    }
    expect(secretConnections).toBe(0);
    await api("DELETE", `/computers/${s.id}`, undefined, target);
  });

  it("refuses Cabin itself, and fetch and WebSocket from an allowed page", async () => {
    const s = await createSession({}, target);
    const self = await execute(s.id, { type: "go_to_url", url: `${server.url}/api/health` }, target);
    expect(self).toMatchObject({ status: "error" });
    expect(self.error_message).toMatch(/egress policy: .*Cabin itself/);

    await execute(s.id, { type: "go_to_url", url: `${site.url}/probe` }, target);
    const text = await waitFor(
      "probe results",
      () => html(s.id, target),
      (h) => h.includes("FETCH:") && h.includes("WS:"),
      20_000,
      250,
    );
    expect(text).toContain("FETCH:failed");
    expect(text).toContain("WS:failed");
    expect(secretConnections).toBe(0);
    await api("DELETE", `/computers/${s.id}`, undefined, target);
  });
});

describe("browser egress with the loopback allowed (the shared test server)", () => {
  it("reaches the same service", async () => {
    const s = await createSession();
    const res = await execute(s.id, { type: "go_to_url", url: `${secret.url}/` });
    expect(res).toMatchObject({ status: "success", result: { http_status: 200 } });
    expect(await html(s.id)).toContain("host-only-secret");
    expect(secretConnections).toBeGreaterThan(0);
    await api("DELETE", `/computers/${s.id}`);
  });
});
