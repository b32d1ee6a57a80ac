// The one process: Next's handler for HTTP, domain fast paths before it (the
// model gateway's `httpHandlersKey`), the WebSocket upgrade hook, and graceful
// shutdown, which route handlers cannot do. Domain code lives inside Next's
// bundle; this file reaches it only through the slots in process-handles
// (`shutdownKey`, `httpHandlersKey`, `upgradeHandlersKey`).
// Upgrades go to the domain handlers by name ("computers-cdp", "computers-ws"), then to Next.
// Before any of them, the edge (lib/api/edge): requests no route serves, bodies
// past MAX_REQUEST_BODY_BYTES, the client address login limits key on, security headers.
import { EventEmitter } from "node:events";
import { createServer, ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server } from "node:http";
import type { Duplex } from "node:stream";
import next from "next";
import { answerClientError, jsonForBareErrors } from "./lib/api/bare-errors";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "./lib/api/client-address";
import { parseAddressRanges } from "./lib/ip-ranges";
import {
  drainLimit, limitBody, refuseDeclaredLength, refuseRequestLine, refuseUpgrade, securityHeaders, surfaceOf, tooLargeError, incomingRequestId,
} from "./lib/api/edge";
import type { AppError } from "./lib/api/errors";
import { renderError } from "./lib/api/render";
import { getEnv } from "./lib/env";
import { httpHandlersKey, shutdownKey, upgradeHandlersKey } from "./lib/process-handles";
import { peekSingleton } from "./lib/singleton";

const env = getEnv();
const dev = env.NODE_ENV === "development";
const trustedProxies = parseAddressRanges(env.TRUSTED_PROXIES);

// Next attaches its own "upgrade" listener to the server of the first request it
// handles (NextCustomServer.setupWebSocketHandler) unless it is given `httpServer`,
// and that listener ends every upgrade Next has no route for, the domain ones
// included. So it gets a sink: upgrades reach Next only through `nextUpgrade`
// below, after the domain handlers declined them.
const upgradeSink = new EventEmitter() as unknown as Server;
const app = next({ dev, hostname: env.HOST, port: env.PORT, dir: process.cwd(), httpServer: upgradeSink });
await app.prepare();
const handle = app.getRequestHandler();
const nextUpgrade = app.getUpgradeHandler();

/** Answers `error` in the request's surface envelope; the connection closes after it. */
function refuse(req: IncomingMessage, res: ServerResponse, error: AppError, requestId: string) {
  const { status, headers, body } = renderError(error, surfaceOf(req.url ?? "/"), requestId);
  if (!res.headersSent) res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body), connection: "close" });
  res.end(body);
}

// Unauthenticated, too slow or too large: such clients do not keep their socket
// (a held socket is a held slot). Ending it first lets the answer arrive before
// the reset that closing with unread data causes; the destroy is the backstop.
const CLOSE_AFTER = new Set([401, 408, 413]);
const CLOSE_GRACE_MS = 2_000;
function closeSoon(socket: Duplex) {
  socket.end();
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

// Built once: they are set on every answer.
const SECURITY_HEADERS = Object.entries(securityHeaders(false));
const SECURITY_HEADERS_HTTPS = Object.entries(securityHeaders(true));

// Node checks the two request timeouts only this often (30 s by default).
const TIMEOUT_CHECK_MS = 1_000;

/**
 * Every answer's response: a CLOSE_AFTER status is announced in it (so keep-alive
 * clients do not reuse the socket), then enforced once it is written. On the
 * prototype rather than wrapped per request: no closure or listener per answer.
 */
class EdgeResponse extends ServerResponse {
  override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, ...rest: unknown[]): this {
    if (CLOSE_AFTER.has(statusCode) && !this.headersSent) {
      this.setHeader("connection", "close");
      this.once("finish", () => closeSoon(this.req.socket));
    }
    return super.writeHead(statusCode, ...(rest as [string?]));
  }
}

const server = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_MS, ServerResponse: EdgeResponse }, (req, res) => {
  const requestId = incomingRequestId(req);
  req.headers["x-request-id"] = requestId;
  res.setHeader("x-request-id", requestId);
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxies);
  for (const [name, value] of req.headers["x-forwarded-proto"] === "https" ? SECURITY_HEADERS_HTTPS : SECURITY_HEADERS) res.setHeader(name, value);
  const refusal = refuseRequestLine(req.method ?? "GET", req.url ?? "/");
  if (refusal) return refuse(req, res, refusal, requestId);
  const declaredTooLarge = refuseDeclaredLength(req.headers["content-length"], env.MAX_REQUEST_BODY_BYTES);
  if (declaredTooLarge) {
    // Drained first (see drainLimit), unless it is past all reason.
    if (Number(req.headers["content-length"]) > drainLimit(env.MAX_REQUEST_BODY_BYTES)) return refuse(req, res, declaredTooLarge, requestId);
    req.once("end", () => refuse(req, res, declaredTooLarge, requestId)).resume();
    return;
  }
  // Node's parser delivers no more body than a declared length, which is within the limit here:
  // only a chunked body must be counted as it arrives.
  if (req.headers["content-length"] === undefined) {
    limitBody(req, env.MAX_REQUEST_BODY_BYTES, () => refuse(req, res, tooLargeError(env.MAX_REQUEST_BODY_BYTES), requestId));
  }
  // Domain HTTP fast paths (the model gateway) first: each returns true when it took the request.
  // They answer every error with a JSON body of their own, so only Next needs `jsonForBareErrors`.
  const fastPaths = peekSingleton(httpHandlersKey);
  if (fastPaths) for (const take of fastPaths.values()) if (take(req, res)) return;
  jsonForBareErrors(res, surfaceOf(req.url ?? "/"), requestId);
  void handle(req, res);
});

// Requests Node's parser refuses (unknown methods, oversized headers, timeouts) get JSON too.
server.on("clientError", (err, socket) => answerClientError(err, socket));

server.on("upgrade", (req, socket, head) => {
  const refusal = refuseRequestLine(req.method ?? "GET", req.url ?? "/");
  if (refusal) return refuseUpgrade(socket, refusal, incomingRequestId(req), surfaceOf(req.url ?? "/"));
  for (const take of peekSingleton(upgradeHandlersKey)?.values() ?? []) if (take(req, socket, head)) return;
  void nextUpgrade(req, socket, head);
});

// Both limits cover receiving the request only: answers (SSE, NDJSON) and
// upgraded sockets (CDP, live view) are not cut by them. A trickled body or
// header set is answered 408 and closed.
server.headersTimeout = env.HTTP_HEADERS_TIMEOUT_SECONDS * 1000;
server.requestTimeout = env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000;
server.keepAliveTimeout = 65_000;

server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  console.log(`Cabin ready on http://localhost:${port} (${dev ? "development" : "production"})`);
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) {
    console.log(`${signal} again: exiting now`);
    process.exit(1);
  }
  stopping = true;
  console.log(`${signal} received: ending sessions and shutting down`);
  server.close();
  try {
    await peekSingleton(shutdownKey)?.(signal);
  } finally {
    server.closeAllConnections();
    process.exit(0);
  }
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
