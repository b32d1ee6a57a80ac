// @needs server light postgres
// docs/security.md "Logins": login limits key on the address the server sees, not on a
// client's X-Forwarded-For, so rotating the header never escapes the limit and
// one client's failures never lock out another's. Loopback has many source
// addresses (127.0.0.2, 127.0.0.3): each stands for a different client.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "./harness";

const LIMIT = 3;
let direct: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  [direct, proxied] = await Promise.all([
    startServer({ env: { AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) } }),
    startServer({ env: { AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUSTED_PROXIES: "127.0.0.9" } }),
  ]);
}, 180_000);
afterAll(async () => {
  for (const server of [direct, proxied]) {
    await server?.stop();
    await server?.destroy();
  }
});

/** A failed sign-in from `from` (a loopback source address), with an optional X-Forwarded-For. */
function signIn(server: TestServer, from: string, forwardedFor?: string): Promise<number> {
  const body = JSON.stringify({ email: "owner@example.com", password: "not-the-password" });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: "POST",
        path: "/api/auth/sign-in/email",
        localAddress: from,
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          origin: server.url,
          ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function attempts(count: number, attempt: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await attempt(i));
  return statuses;
}

describe("login rate limits", () => {
  it("a rotated X-Forwarded-For from an untrusted client does not reset the limit", async () => {
    const statuses = await attempts(LIMIT + 2, (i) => signIn(direct, "127.0.0.2", `203.0.113.${i + 1}`));
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  });

  it("one client's failures do not lock out another client", async () => {
    // 127.0.0.2 is locked out by the test above; 127.0.0.3 is someone else.
    expect(await signIn(direct, "127.0.0.2")).toBe(429);
    expect(await signIn(direct, "127.0.0.3")).toBe(401);
  });

  it("behind a trusted proxy, each forwarded client has its own limit", async () => {
    const first = await attempts(LIMIT + 1, () => signIn(proxied, "127.0.0.9", "198.51.100.7"));
    expect(first.at(-1)).toBe(429);
    expect(await signIn(proxied, "127.0.0.9", "198.51.100.8")).toBe(401);
    // The proxy's own hop list is read right to left: a spoofed leftmost entry does not help.
    expect(await signIn(proxied, "127.0.0.9", "198.51.100.8, 198.51.100.7")).toBe(429);
  });
});
