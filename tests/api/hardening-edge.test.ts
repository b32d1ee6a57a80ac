// @needs server chromium
// The custom server's edge (docs/security.md "Request limits"): what it answers
// before any route runs. Raw sockets, because fetch would normalize the paths,
// refuse TRACE and never trickle a body.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { waitFor } from "./wait-for";

const BODY_LIMIT = 64 * 1024;
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({
    env: {
      MAX_REQUEST_BODY_BYTES: String(BODY_LIMIT),
      HTTP_REQUEST_TIMEOUT_SECONDS: "3",
      HTTP_HEADERS_TIMEOUT_SECONDS: "2",
      LIVE_VIEW_PING_SECONDS: "1",
    },
  });
  key = await createOrgKey(server, "edge");
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await server?.destroy();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/** Sends raw bytes, reads one answer; `closed` tells whether the server ended the socket within `closeWithinMs`. */
function raw(request: string | ((socket: Socket) => void), closeWithinMs = 3_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let text = "";
    let answer: Omit<RawAnswer, "closed"> | null = null;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      if (answer) resolve({ ...answer, closed });
      else reject(new Error(`no answer; got ${JSON.stringify(text.slice(0, 200))}`));
    };
    const timer = setTimeout(() => finish(false), 15_000);
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      if (split < 0 || answer) return;
      const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      const length = Number(headers["content-length"] ?? NaN);
      const body = text.slice(split + 4);
      if (Number.isFinite(length) && Buffer.byteLength(body, "latin1") < length) return;
      answer = {
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: Number.isFinite(length) ? body.slice(0, length) : body,
      };
      clearTimeout(timer);
      setTimeout(() => finish(false), closeWithinMs).unref();
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => undefined);
    socket.on("connect", () => (typeof request === "string" ? socket.write(request) : request(socket)));
  });
}

const get = (path: string, method = "GET", headers = "") =>
  raw(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: keep-alive\r\n\r\n`);

describe("requests refused at the edge, as JSON in the surface's envelope", () => {
  it("TRACE on any path is a 405 with allow, never a 500", async () => {
    for (const path of ["/computers", "/v1/models", "/login"]) {
      const answer = await get(path, "TRACE");
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toContain("GET");
      expect(answer.headers["content-type"]).toContain("application/json");
      const body = JSON.parse(answer.body);
      expect(path.startsWith("/v1") ? body.error.type : body.error.code).toBe(
        path.startsWith("/v1") ? "invalid_request_error" : "method_not_allowed",
      );
    }
  });

  it("malformed percent-encoding is a 400 before any auth check", async () => {
    for (const path of ["/computers/%ff%fe", "/computers/abc/tabs/tab_%ff", "/v1/models/%e0%a4"]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body).error.message).toMatch(/percent-encoding/);
    }
  });

  it("a NUL byte in the path is a 400 naming it", async () => {
    const answer = await get("/computers/%00abc");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.message).toMatch(/NUL/);
  });

  it("dot segments under /computers and /v1 are JSON 404s, not Next's HTML", async () => {
    for (const path of ["/computers/../api/health", "/v1/./models", "/computers/%2e%2e/x"]) {
      const answer = await get(path, "GET", `Authorization: Bearer ${key}\r\n`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers["content-type"]).toContain("application/json");
    }
  });
});

describe("bodies past the limit", () => {
  // Also: so a client that sends before it reads gets the answer.
  it("a body a little past the limit is read to its end and answered 413", async () => {
    const body = JSON.stringify({ kind: "browser", padding: "x".repeat(BODY_LIMIT * 2) });
    for (const path of ["/computers", "/v1/chat/completions"]) {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      });
      expect(res.status, path).toBe(413);
      expect(JSON.stringify(await res.json())).toMatch(/larger than/);
    }
  });

  it("a declared length far past the limit is a 413 at once, on both surfaces", async () => {
    for (const path of ["/computers", "/v1/chat/completions", "/api/auth/sign-in/email"]) {
      const answer = await raw(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ` +
          `${40 * 1024 * 1024}\r\n\r\n{`,
      );
      expect(answer.status, path).toBe(413);
      expect(answer.closed, path).toBe(true);
    }
  });

  it("a chunked body is counted as it arrives and cut at the limit", async () => {
    const chunk = "x".repeat(16 * 1024);
    const answer = await raw((socket) => {
      socket.write(
        `POST /computers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: ` +
          `application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      for (let i = 0; i < 8; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      socket.write("0\r\n\r\n");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe("payload_too_large");
    expect(answer.closed).toBe(true);
  });
});

describe("sockets that hold the server", () => {
  it("a trickled body is answered 408 and closed, though bytes keep arriving", async () => {
    let trickle: NodeJS.Timeout | undefined;
    const answer = await raw((socket) => {
      socket.write(
        `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ` +
          `application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      trickle = setInterval(() => socket.writable && socket.write(" "), 200);
    });
    clearInterval(trickle);
    expect(answer.status).toBe(408);
    expect(answer.closed).toBe(true);
  });

  it("an unauthenticated answer closes the connection", async () => {
    const answer = await get("/computers");
    expect(answer.status).toBe(401);
    expect(answer.closed).toBe(true);
  });

  it("an authenticated answer keeps it", async () => {
    const answer = await get("/computers", "GET", `Authorization: Bearer ${key}\r\n`);
    expect(answer.status).toBe(200);
    expect(answer.closed).toBe(false);
  });

  it("the server keeps answering after all of the above", async () => {
    await waitFor(async () => (await fetch(`${server.url}/api/health`)).ok, { message: "health" });
  });
});

describe("live-view sockets", () => {
  it("a /ws client that reads but never answers a ping is cut (within two ping periods)", async () => {
    const created = await fetch(`${server.url}/computers`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "browser" }),
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    try {
      const socket = connect(server.port, "127.0.0.1");
      let text = "";
      let closed = false;
      socket.on("data", (chunk) => (text += chunk.toString("latin1")));
      socket.on("close", () => (closed = true));
      socket.on("error", () => undefined);
      socket.write(
        `GET /computers/${id}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nUpgrade: ` +
          `websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ` +
          `dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
      await waitFor(() => text, { until: (t) => t.includes("\r\n\r\n"), message: "the handshake" });
      expect(text.split("\r\n", 1)[0]).toContain("101");
      // It reads everything (frames, pings) and never sends a pong: the server must close it.
      await waitFor(() => closed, { timeoutMs: 30_000, message: "the server to close the silent socket" });
      socket.destroy();
    } finally {
      await fetch(`${server.url}/computers/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
    }
  }, 60_000);
});

describe("security headers", () => {
  it("pages cannot be framed, sniffed or leak the path in referrers", async () => {
    const page = await fetch(`${server.url}/login`);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(page.headers.get("strict-transport-security")).toBeNull();
    const behindHttps = await fetch(`${server.url}/login`, { headers: { "x-forwarded-proto": "https" } });
    expect(behindHttps.headers.get("strict-transport-security")).toContain("max-age=");
  });
});

describe("data files", () => {
  it.skipIf(!!process.env.CABIN_TEST_DATABASE_URL)(
    "the SQLite database is readable by the server's user only",
    async () => {
      const { statSync } = await import("node:fs");
      const { join } = await import("node:path");
      expect(statSync(join(server.dataDir, "cabin.db")).mode & 0o777).toBe(0o600);
      expect(statSync(join(server.dataDir, "secret")).mode & 0o777).toBe(0o600);
    },
  );
});
