// The requests of the hostile suite: operations read from /openapi.json, turned into
// fast-check arbitraries that keep close enough to the API to get past routing (so
// validation, auth and the actions themselves are what is attacked), and the fixed
// corpus of what an outside security probe sent (docs/security.md "Request limits").
import fc from "fast-check";
import type { RawRequest } from "./raw-http";

export interface Operation {
  method: string;
  /** The path template, e.g. /computers/{id}/execute. */
  template: string;
  example?: unknown;
}

type OpenApi = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { example?: unknown }> } }>>;
};

export function operationsOf(doc: OpenApi): Operation[] {
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      template,
      example: op.requestBody?.content?.["application/json"]?.example,
    })),
  );
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "PROPFIND", "FOO"];

/** Path segments a hostile client puts where an id goes. */
const hostileSegment = fc.oneof(
  fc.constantFrom(
    "does-not-exist",
    "%ff%fe",
    "tab_%ff",
    "..",
    "%2e%2e",
    "%00",
    "a%2fb",
    "%",
    "%zz",
    "😀",
    "x".repeat(3000),
    "1e308",
    "-1",
    "null",
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
);

/** Values that break naive validation: extremes, wrong types, NUL bytes, deep nesting. */
const nasty = fc.oneof(
  fc.constantFrom(
    -1e308,
    1e308,
    -1,
    0,
    2 ** 53,
    -(2 ** 31),
    0.5,
    "",
    "\u0000",
    "a\u0000b",
    "%00",
    "../../etc/passwd",
    "x".repeat(5_000),
    null,
    true,
    [],
    {},
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 200 }),
  fc.constant(JSON.parse("[".repeat(200) + "]".repeat(200))),
);

/** The example body with one field replaced, removed or added, or something else entirely. */
function mutatedBody(example: unknown): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [fc.jsonValue({ maxDepth: 4 }), nasty, fc.object({ maxDepth: 2 })];
  if (example && typeof example === "object" && !Array.isArray(example)) {
    const record = example as Record<string, unknown>;
    const keys = Object.keys(record);
    options.push(fc.constant(example));
    if (keys.length) {
      options.push(fc.tuple(fc.constantFrom(...keys), nasty).map(([k, v]) => ({ ...record, [k]: v })));
      options.push(
        fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(record).filter(([key]) => key !== k))),
      );
      // One level down (an action's fields, a message's content).
      options.push(
        fc.tuple(fc.constantFrom(...keys), fc.string({ maxLength: 12 }), nasty).map(([k, inner, v]) => {
          const value = record[k];
          return value && typeof value === "object" && !Array.isArray(value)
            ? { ...record, [k]: { ...(value as object), [inner]: v } }
            : { ...record, [k]: v };
        }),
      );
    }
    options.push(fc.tuple(fc.string({ maxLength: 12 }), nasty).map(([k, v]) => ({ ...record, [k]: v })));
  }
  return fc.oneof(...options);
}

const bodyBytes = (example: unknown) =>
  fc.oneof(
    { weight: 6, arbitrary: mutatedBody(example).map((v) => Buffer.from(JSON.stringify(v) ?? "null")) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("{", '{"a":', "[1,2", "\u0000", "null", '"\\ud800"', '{"__proto__":{"x":1}}')
        .map((t) => Buffer.from(t)),
    },
  );

export function hostileRequest(
  operations: Operation[],
  ids: { liveId: string; key: string },
): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      op: fc.constantFrom(...operations),
      method: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      id: fc.oneof({ weight: 3, arbitrary: fc.constant(ids.liveId) }, { weight: 2, arbitrary: hostileSegment }),
      other: fc.oneof(fc.constantFrom("tab_0", "main", "shot.png"), hostileSegment),
      query: fc.oneof(
        fc.constant(""),
        fc.constantFrom(
          "?limit=-1",
          "?limit=1e9",
          "?cursor=%ff",
          "?fps=0",
          "?fps=9999&quality=-5",
          "?format=h264",
          "?token=x",
        ),
        fc.string({ maxLength: 20 }).map((s) => `?${encodeURIComponent(s)}=${encodeURIComponent(s)}`),
      ),
      auth: fc.oneof(
        { weight: 8, arbitrary: fc.constant(`Bearer ${ids.key}`) },
        { weight: 1, arbitrary: fc.constantFrom("", "Bearer ", "Bearer cabin_sk_forged", "Basic Zm9vOmJhcg==") },
      ),
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant("application/json") },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "",
            "text/plain",
            "multipart/form-data; boundary=x",
            "application/json; charset=utf-16",
          ),
        },
      ),
    })
    .chain((r) =>
      bodyBytes(r.op.example).map((body) => {
        const method = r.method ?? r.op.method;
        const path = r.op.template.replace("{id}", r.id).replace(/\{[a-z_]+\}/g, r.other) + r.query;
        const headers: Record<string, string> = {};
        if (r.auth) headers.authorization = r.auth;
        const withBody = !["GET", "HEAD", "DELETE", "OPTIONS", "TRACE"].includes(method);
        if (withBody && r.contentType) headers["content-type"] = r.contentType;
        return { method, path, headers, body: withBody ? body : undefined, label: `${method} ${path.slice(0, 120)}` };
      }),
    );
}

/** The security probe's requests (docs/security.md "Request limits"). */
export function HOSTILE_CORPUS(liveId: string, key: string): RawRequest[] {
  const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const json = (method: string, path: string, body: unknown): RawRequest => ({
    method,
    path,
    headers: auth,
    body: Buffer.from(JSON.stringify(body)),
    label: `corpus ${method} ${path}`,
  });
  const bare = (method: string, path: string): RawRequest => ({
    method,
    path,
    headers: { authorization: `Bearer ${key}` },
    label: `corpus ${method} ${path}`,
  });
  return [
    ...["/computers", `/computers/${liveId}`, "/v1/models", "/v1/chat/completions", "/api/health", "/"].flatMap((p) => [
      bare("TRACE", p),
      bare("PROPFIND", p),
      bare("OPTIONS", p),
    ]),
    bare("GET", "/computers/%ff%fe"),
    bare("GET", `/computers/${liveId}/tabs/tab_%ff`),
    bare("DELETE", "/computers/%ff"),
    bare("GET", "/computers/../v1/models"),
    bare("GET", "/computers/./x/../y"),
    bare("GET", "/v1/../../etc/passwd"),
    bare("GET", "/v1/%2e%2e/models"),
    bare("GET", "/v1?x=1"),
    bare("GET", "/computers?limit=abc"),
    bare("GET", "/computers?cursor=%ff%fe"),
    json("POST", `/computers/${liveId}/exec/sync`, { command: "echo a\u0000b" }),
    json("POST", `/computers/${liveId}/exec/sync`, { command: "true", cwd: "/tmp\u0000" }),
    json("POST", `/computers/${liveId}/execute`, { action: { type: "type", text: "a\u0000b" } }),
    json("POST", `/computers/${liveId}/execute`, { action: { type: "scroll", x: 10, y: 10, dx: -1e308, dy: 0 } }),
    json("POST", `/computers/${liveId}/execute`, { action: { type: "click", x: 1e308, y: -1e308 } }),
    json("POST", `/computers/${liveId}/execute`, { action: { type: "go_to_url", url: "file:///etc/passwd" } }),
    json("POST", `/computers/${liveId}/execute`, {
      action: { type: "go_to_url", url: "http://169.254.169.254/latest/meta-data/" },
    }),
    json("POST", "/computers", { kind: "browser", display: { width: 1e308, height: -1 } }),
    json("POST", "/computers", { timeout_seconds: -1, inactivity_timeout_seconds: 1e308 }),
    json("POST", "/v1/chat/completions", {
      model: "x",
      messages: [{ role: "user", content: "a\u0000" }],
      max_tokens: 1e308,
    }),
    json("POST", "/v1/chat/completions", { messages: "not an array" }),
    {
      method: "POST",
      path: "/computers",
      headers: auth,
      body: Buffer.from('{"kind":'),
      label: "corpus truncated JSON",
    },
    {
      method: "POST",
      path: "/v1/chat/completions",
      headers: auth,
      body: Buffer.alloc(2 * 1024 * 1024, 0x61),
      label: "corpus 2 MiB of 'a'",
    },
    {
      method: "POST",
      path: "/computers",
      headers: auth,
      body: Buffer.alloc(2 * 1024 * 1024, 0x20),
      label: "corpus 2 MiB of spaces",
    },
  ];
}
