// @needs server light chromium
// Every answer decodes and every API path answers JSON (docs/security.md "Answers"): a generated
// list of odd paths (unknown routes under each surface in any case, dot segments that resolve onto
// one, trailing slashes), each asked with Accept-Encoding gzip, deflate and br. Read raw (node:http,
// which neither normalizes the path nor decodes) and decoded by zlib as labelled; and through Node's
// fetch, which hung for ever on a mislabelled body, with a deadline of our own. Also: Origin null or
// malformed on a dashboard write is a 403, and GET /mcp is refused at once.
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { call } from "./client";
import { signUp } from "./session-client";

const ENCODINGS = ["gzip", "deflate", "br"] as const;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request as sent (no path normalization, no decoding); the body as it came on the wire. */
function rawGet(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const base = new URL(inject("baseUrl"));
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, method: "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to GET ${path}`)));
    req.on("error", reject);
    req.end();
  });
}

/** The body decoded as its Content-Encoding says; throws when the label does not match the bytes. */
function decoded(answer: RawAnswer): string {
  const encoding = String(answer.headers["content-encoding"] ?? "identity");
  if (encoding === "gzip") return gunzipSync(answer.body).toString("utf8");
  if (encoding === "deflate") return inflateSync(answer.body).toString("utf8");
  if (encoding === "br") return brotliDecompressSync(answer.body).toString("utf8");
  expect(encoding).toBe("identity");
  return answer.body.toString("utf8");
}

/** Unknown routes under every JSON surface (in other cases too), dot segments landing on one, trailing slashes. */
function oddApiPaths(): string[] {
  const prefixes = ["/api", "/API", "/agent", "/Agent", "/v1", "/V1", "/computers", "/mcp", "/MCP", "/chat"];
  const tails = ["/no-such-route", "/x/y/z", "/nope.json", "/%7Enope"];
  const paths = prefixes.flatMap((prefix) => tails.map((tail) => `${prefix}${tail}`));
  for (const from of ["/login", "/x", "/computers"])
    for (const to of ["/api/nope", "/agent/nope", "/V1/nope", "/mcp/nope"]) paths.push(`${from}/..${to}`);
  paths.push("/api/", "/api/keys/", "/agent/", "/mcp/", "/chat/", "/V1/", "/computers/");
  return paths;
}

/** A page or asset outside the JSON surfaces: it need not be JSON, but it must decode. */
const PAGE_PATHS = ["/login", "/no-such-page", "/x/../no-such-page", "/favicon.ico"];

const isJson = (answer: RawAnswer) => /application\/json/.test(String(answer.headers["content-type"] ?? ""));

describe("every answer decodes under every encoding", () => {
  it("odd API paths answer JSON below 500, decodable as labelled, raw", async () => {
    const problems: string[] = [];
    for (const path of oddApiPaths()) {
      for (const encoding of ENCODINGS) {
        const answer = await rawGet(path, { "accept-encoding": encoding });
        let text: string;
        try {
          text = decoded(answer);
        } catch (err) {
          problems.push(`${path} (${encoding}): labelled ${answer.headers["content-encoding"]}, ${String(err)}`);
          continue;
        }
        if (answer.status >= 500) problems.push(`${path} (${encoding}): ${answer.status}`);
        if (!isJson(answer)) problems.push(`${path} (${encoding}): ${answer.status} ${answer.headers["content-type"]}`);
        else if (!JSON.parse(text).error)
          problems.push(`${path} (${encoding}): no error envelope: ${text.slice(0, 80)}`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("pages decode as labelled too", async () => {
    for (const path of PAGE_PATHS) {
      for (const encoding of ENCODINGS) {
        const answer = await rawGet(path, { "accept-encoding": encoding });
        expect(() => decoded(answer), `${path} (${encoding})`).not.toThrow();
        expect(answer.status, path).toBeLessThan(500);
      }
    }
  }, 60_000);

  it("Node's fetch reads every answer to its end (it hung on a mislabelled one)", async () => {
    const base = inject("baseUrl");
    for (const path of [...oddApiPaths(), ...PAGE_PATHS]) {
      for (const encoding of ENCODINGS) {
        const signal = AbortSignal.timeout(10_000);
        // fetch ignored its own signal while stuck decoding: a deadline of our own decides.
        const deadline = new Promise<never>((_, reject) => {
          const timer = setTimeout(() => reject(new Error(`fetch ${path} (${encoding}) did not finish`)), 12_000);
          timer.unref();
        });
        const read = fetch(`${base}${path}`, { headers: { "accept-encoding": encoding }, signal }).then(
          async (res) => ({ status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() }),
        );
        const answer = await Promise.race([read, deadline]);
        expect(answer.status, path).toBeLessThan(500);
      }
    }
  }, 180_000);
});

describe("Origin null or malformed on a dashboard write", () => {
  const writes: Array<[string, string, unknown]> = [
    ["POST", "/api/keys", { name: "k" }],
    ["DELETE", "/api/sessions/x", undefined],
    ["PUT", "/api/budgets", { scope: "organization", monthly_budget_usd: 5 }],
    ["POST", "/api/tasks", { instruction: "x" }],
    ["PATCH", "/api/organization", { name: "n" }],
    ["POST", "/api/organization/leave", {}],
    ["POST", "/api/playground/chat", { messages: [] }],
  ];

  it("is a 403 like any foreign origin, logged in or not", async () => {
    const member = await signUp("Origin Tester");
    for (const origin of ["null", "not a url", "http://", "://x"]) {
      for (const cookie of [undefined, member.cookie]) {
        for (const [method, path, body] of writes) {
          const res = await call(method, path, { key: null, body, headers: { origin, ...(cookie ? { cookie } : {}) } });
          expect(res.status, `${method} ${path} origin=${origin} ${cookie ? "logged in" : "logged out"}`).toBe(403);
          expect(res.body.error.code).toBe("forbidden");
        }
      }
    }
    // The member's own origin still works.
    expect((await member.request("POST", "/api/keys", { name: "mine" })).status).toBeLessThan(300);
  }, 60_000);
});

describe("GET /mcp", () => {
  it("is refused at once with 405 and the methods served", async () => {
    const res = await fetch(`${inject("baseUrl")}/mcp`, {
      headers: { authorization: `Bearer ${inject("apiKey")}`, accept: "text/event-stream" },
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });
});
