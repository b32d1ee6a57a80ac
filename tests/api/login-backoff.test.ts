// @needs server light postgres
// Login backoff (docs/security.md "Logins"): failed sign-ins slow down exponentially per
// (account, client address), so an attacker's failures delay the attacker and never
// lock the owner out. Loopback source addresses stand for clients (127.0.0.2 the
// attacker, 127.0.0.3 the owner), as in hardening-login.test.ts.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "./harness";
import { waitFor } from "./wait-for";

const EMAIL = "owner@example.com";
const PASSWORD = "the-right-password";
const FREE = 3;
let server: TestServer;

beforeAll(async () => {
  // AUTH_RATE_LIMIT_PER_MINUTE stays 0 (harness): every 429 here is the backoff's.
  server = await startServer({ env: { LOGIN_BACKOFF_FREE_FAILURES: String(FREE), LOGIN_BACKOFF_BASE_SECONDS: "1" } });
  const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD, name: "Owner" }),
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await server?.destroy();
});

interface Answer {
  status: number;
  retryAfter: number | null;
  body: any;
}

function signIn(from: string, password: string): Promise<Answer> {
  const body = JSON.stringify({ email: EMAIL, password });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: "POST",
        path: "/api/auth/sign-in/email",
        localAddress: from,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), origin: server.url },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          const retryAfter = res.headers["retry-after"];
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // keep the text
          }
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: retryAfter === undefined ? null : Number(retryAfter),
            body: parsed,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("per-account login backoff", () => {
  // A 429 with a growing retry-after and a readable message.
  it("an address failing repeatedly waits longer each time", async () => {
    for (let i = 0; i < FREE; i++) expect((await signIn("127.0.0.2", "wrong-password")).status).toBe(401);
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      const refused = await signIn("127.0.0.2", "wrong-password");
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/Too many failed sign-ins .* Try again in \d+ seconds?\./);
      waits.push(refused.retryAfter!);
      // Once the wait is over, the next try is checked again (and fails again: a longer wait).
      const next = await waitFor(() => signIn("127.0.0.2", "wrong-password"), {
        until: (a) => a.status !== 429,
        timeoutMs: 20_000,
        intervalMs: 250,
        message: "the attacker's wait to end",
      });
      expect(next.status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4]);
    // While waiting, even the right password from that address is refused unchecked.
    expect((await signIn("127.0.0.2", PASSWORD)).status).toBe(429);
  }, 60_000);

  it("the owner from another address is not delayed by the attacker's failures", async () => {
    expect((await signIn("127.0.0.2", "wrong-password")).status).toBe(429);
    const owner = await signIn("127.0.0.3", PASSWORD);
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    // A typo of the owner's is an ordinary 401, and the attacker stays delayed.
    expect((await signIn("127.0.0.3", "typo-password")).status).toBe(401);
    expect((await signIn("127.0.0.2", "wrong-password")).status).toBe(429);
  });

  it("a sign-in that succeeds clears that address's failures", async () => {
    for (let i = 0; i < FREE - 1; i++) expect((await signIn("127.0.0.4", "wrong-password")).status).toBe(401);
    expect((await signIn("127.0.0.4", PASSWORD)).status).toBe(200);
    for (let i = 0; i < FREE; i++) expect((await signIn("127.0.0.4", "wrong-password")).status).toBe(401);
  });
});
