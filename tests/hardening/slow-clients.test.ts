// @needs server quiet-machine chromium
// Hardening suite "Slow clients" (docs/development.md "Hardening suites"): 50 sockets trickle their headers or
// their body, a byte at a time, to /computers, /v1 and the sign-in route. Each is
// closed within the header/request timeout (plus the server's check interval and
// a margin), and meanwhile the server keeps answering ordinary requests.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "../api/harness";
import { percentile } from "./raw-http";

const HEADERS_TIMEOUT_S = 2;
const REQUEST_TIMEOUT_S = 3;
// The server checks its sockets' timers once a second (connectionsCheckingInterval); the rest is a loaded machine.
const MARGIN_MS = 6_000;
const SOCKETS = 50;
const TRICKLE_EVERY_MS = 250;

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({
    env: {
      HTTP_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_S),
      HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_S),
    },
  });
  key = await createOrgKey(server, "slow");
}, 120_000);

afterAll(async () => {
  await server?.destroy();
});

interface Trickle {
  label: string;
  /** What is sent at once. */
  head: string;
  /** Sent a byte per tick, for ever (a body or headers that never end). */
  drip: string;
}

function trickles(): Trickle[] {
  const targets = [
    { path: "/computers", body: '{"kind":"browser"}' },
    { path: "/v1/chat/completions", body: '{"model":"x","messages":[{"role":"user","content":"hi"}]}' },
    { path: "/api/auth/sign-in/email", body: '{"email":"a@example.test","password":"not-it"}' },
  ];
  const list: Trickle[] = [];
  for (let i = 0; i < SOCKETS; i++) {
    const { path, body } = targets[i % targets.length];
    const line = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
    if (i % 2 === 0) {
      // Headers that never end: one more header byte per tick.
      list.push({ label: `headers → ${path}`, head: line, drip: `X-Slow: ${"a".repeat(10_000)}` });
    } else {
      list.push({
        label: `body → ${path}`,
        head:
          `${line}Authorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ` +
          `${body.length + 10_000}\r\n\r\n`,
        drip: body + " ".repeat(10_000),
      });
    }
  }
  return list;
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

/** Opens the socket and trickles; resolves with the ms until the server closed it (or the cap). */
function hold(t: Trickle, capMs: number): Promise<{ label: string; closedAfterMs: number | null; answer: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(server.port, "127.0.0.1");
    let answer = "";
    let sent = 0;
    let drip: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearInterval(drip);
      clearTimeout(cap);
      socket.destroy();
      resolve({
        label: t.label,
        closedAfterMs: closed ? performance.now() - started : null,
        answer: answer.split("\r\n")[0],
      });
    };
    const cap = setTimeout(() => finish(false), capMs);
    socket.on("connect", () => {
      socket.write(t.head);
      drip = setInterval(() => {
        if (socket.writable && sent < t.drip.length) socket.write(t.drip[sent++]);
      }, TRICKLE_EVERY_MS);
    });
    socket.on("data", (d) => (answer += d.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => finish(true));
  });
}

describe("slow clients", () => {
  it(`${SOCKETS} trickling sockets are all closed within the timeout, and the server keeps answering`, async () => {
    const limitMs = REQUEST_TIMEOUT_S * 1000 + MARGIN_MS;
    const held = Promise.all(trickles().map((t) => hold(t, limitMs * 3)));
    const latencies: number[] = [];
    let done = false;
    void held.then(() => (done = true));
    const normal = (async () => {
      while (!done) {
        const started = performance.now();
        const [health, list] = await Promise.all([
          fetch(`${server.url}/api/health`),
          fetch(`${server.url}/computers`, { headers: { authorization: `Bearer ${key}` } }),
        ]);
        expect(health.status).toBe(200);
        expect(list.status).toBe(200);
        await list.arrayBuffer();
        await health.arrayBuffer();
        latencies.push(performance.now() - started);
      }
    })();
    const results = await held;
    await normal;

    const closes = results.map((r) => r.closedAfterMs ?? Infinity).sort((a, b) => a - b);
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `[slow-clients] ${results.length} trickling sockets: closed p50 ${percentile(closes, 50).toFixed(0)} ms, max ` +
        `${closes.at(-1)!.toFixed(0)} ms ` +
        `(headers timeout ${HEADERS_TIMEOUT_S} s, request timeout ${REQUEST_TIMEOUT_S} s); meanwhile ` +
        `${latencies.length} normal request pairs: ` +
        `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ` +
        `${(sorted.at(-1) ?? 0).toFixed(0)} ms; ` +
        `answers ${JSON.stringify(countBy(results.map((r) => r.answer || "(closed without an answer)")))}`,
    );
    const late = results.filter((r) => r.closedAfterMs === null || r.closedAfterMs > limitMs);
    expect(
      late.map((r) => `${r.label}: ${r.closedAfterMs === null ? "still open" : `${r.closedAfterMs.toFixed(0)} ms`}`),
    ).toEqual([]);
    expect(latencies.length).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
