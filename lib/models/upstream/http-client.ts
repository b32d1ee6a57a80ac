// A lean HTTP client for upstream calls: node:http(s) with keep-alive agents.
// fetch (undici, and Next's patched fetch inside route bundles) costs a good
// part of a millisecond per call in Web-stream plumbing; a gateway whose whole
// budget is ~2 ms cannot spend that. Bodies are returned as the Node stream.
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { urlToHttpOptions } from "node:url";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

const agents = {
  "http:": new http.Agent({ keepAlive: true, keepAliveMsecs: 30_000 }),
  "https:": new https.Agent({ keepAlive: true, keepAliveMsecs: 30_000 }),
};

export interface UpstreamResponse {
  status: number;
  header(name: string): string | undefined;
  /** The body as it arrives (async-iterable Buffers). */
  body: IncomingMessage;
  /** The whole body as text; with `limit`, at most that many bytes (the rest is dropped). */
  text(limit?: number): Promise<string>;
}

/** Read with events, not `for await`: an async iterator costs promises per chunk on every upstream answer. */
function readText(body: IncomingMessage, limit = Infinity): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const done = () => {
      ended = true;
      resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).subarray(0, limit).toString("utf8"));
    };
    body.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        body.removeAllListeners("data").removeAllListeners("end");
        body.destroy();
        done();
      }
    });
    body.once("end", done);
    body.once("error", reject);
    // Destroyed without an error (our abort): 'close' without 'end'. After 'end' no Error is
    // built: its stack trace would be a cost paid on every answer for a rejection that is a no-op.
    body.once("close", () => {
      if (!ended) reject(new Error("the upstream's answer was cut off"));
    });
  });
}

/**
 * Where an upstream endpoint is, as `http.request` options: converted from its URL once,
 * with the urlToHttpOptions that `http.request(url)` would run on every call.
 */
export type UpstreamTarget = ReturnType<typeof urlToHttpOptions>;

/**
 * POSTs a JSON body; resolves at the response headers, rejects on network errors or abort.
 * The body goes as a string: Node then sends it in one buffer with the request head.
 */
export function postJson(
  target: UpstreamTarget,
  payload: unknown,
  headers: Record<string, string>,
  signal: RequestSignal,
): Promise<UpstreamResponse> {
  const body = JSON.stringify(payload);
  const transport = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const req = transport.request(
      {
        ...target,
        method: "POST",
        agent: agents[target.protocol as keyof typeof agents],
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const v = res.headers[name.toLowerCase()];
            return Array.isArray(v) ? v.join(", ") : v;
          },
          body: res,
          text: (limit) => readText(res, limit),
        });
      },
    );
    const onAbort = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    req.once("close", () => signal.removeEventListener("abort", onAbort));
    req.once("error", reject);
    req.end(body);
  });
}
