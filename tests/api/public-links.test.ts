// @needs server light chromium
// What a client or browser sees of the server's own addresses: the icons in public/ and
// the links in answers (screenshot URLs, endpoints) without PUBLIC_URL, which follow the
// request (X-Forwarded-Proto/-Host, else Host) and never name a bind address.
import { request } from "node:http";
import { describe, expect, inject, it, afterAll, beforeAll } from "vitest";
import { call } from "./client";
import { api, createSession } from "./computers-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";

/** A raw HTTP request, so Host and X-Forwarded-* are sent exactly as given. */
function rawRequest(base: string, method: string, urlPath: string, headers: Record<string, string>, body?: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(
      `${base}${urlPath}`,
      {
        method,
        headers: {
          ...headers,
          ...(text ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) } : {}),
        },
      },
      (res) => {
        let data = "";
        res.on("data", (chunk) => (data += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: data ? JSON.parse(data) : null }));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

describe("public/ icons", () => {
  it("serves a real favicon.ico, the SVG icon and the apple-touch icon, and the pages link them", async () => {
    const base = inject("baseUrl");
    const ico = await fetch(`${base}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get("content-type")).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    const bytes = Buffer.from(await ico.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // ICO header: reserved 0, type 1 (icon)
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
    const svg = await fetch(`${base}/icon.svg`);
    expect(svg.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    const apple = await fetch(`${base}/apple-touch-icon.png`);
    expect(apple.headers.get("content-type")).toBe("image/png");
    const page = await (await fetch(`${base}/login`)).text();
    expect(page).toMatch(/<link[^>]*rel="icon"[^>]*href="\/favicon\.ico"/);
    expect(page).toMatch(/<link[^>]*rel="apple-touch-icon"[^>]*href="\/apple-touch-icon\.png"/);
  });
});

describe("without PUBLIC_URL: links follow the request, never 0.0.0.0", () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startServer({
      env: {
        PUBLIC_URL: "",
        MODEL_WARMUP: "0",
        MODEL_RATE_LIMIT_RPM: "1",
        DESKTOP_ENABLED: "0",
        BROWSER_STANDBY_CONTEXTS: "0",
      },
    });
    key = await createOrgKey(server, "Links org");
  });
  const ours: string[] = [];
  afterAll(async () => {
    await Promise.all(ours.map((id) => api("DELETE", `/computers/${id}`, undefined, { key, base: server.url })));
    await server?.destroy();
  });

  async function screenshotUrlVia(id: string, headers: Record<string, string>) {
    const res = await rawRequest(
      server.url,
      "POST",
      `/computers/${id}/screenshot`,
      { authorization: `Bearer ${key}`, ...headers },
      {},
    );
    expect(res.status).toBe(200);
    return new URL(res.body.result.screenshot_url as string);
  }

  it("uses X-Forwarded-Proto/-Host, else Host; a bind address becomes localhost; bad headers fall back", async () => {
    const s = await createSession({}, { key, base: server.url });
    ours.push(s.id);
    expect((await screenshotUrlVia(s.id, { host: "cabin.test:8443" })).origin).toBe("http://cabin.test:8443");
    const proxied = await screenshotUrlVia(s.id, {
      host: "internal:3000",
      "x-forwarded-host": "public.example",
      "x-forwarded-proto": "https",
    });
    expect(proxied.origin).toBe("https://public.example");
    expect((await screenshotUrlVia(s.id, { host: `0.0.0.0:${server.port}` })).origin).toBe(
      `http://localhost:${server.port}`,
    );
    const spoofed = await screenshotUrlVia(s.id, { host: "cabin.test", "x-forwarded-host": "evil.example/steal?x=" });
    expect(spoofed.origin).toBe("http://cabin.test");

    // The link works as given once the host resolves to this server.
    const direct = await screenshotUrlVia(s.id, { host: `127.0.0.1:${server.port}` });
    expect(direct.origin).toBe(server.url);
    expect((await fetch(direct)).status).toBe(200);
  });

  it("429 carries x-should-retry: true and retry-after (503 shares the rule: unit-tested)", async () => {
    // One request a minute: the first (a bad body) uses it up, the second is limited.
    const first = await call("POST", "/v1/chat/completions", { base: server.url, key, body: {} });
    expect(first.status).toBe(400);
    const limited = await call("POST", "/v1/chat/completions", { base: server.url, key, body: {} });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("x-should-retry")).toBe("true");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});
