// The one process: Next's handler for HTTP, domain fast paths before it (the
// model gateway's `httpHandlersKey`), the WebSocket upgrade hook, and graceful
// shutdown, which route handlers cannot do. Domain code lives inside Next's
// bundle; this file reaches it only through the slots in process-handles
// (`shutdownKey`, `httpHandlersKey`, `upgradeHandlersKey`).
// Requests and upgrades for a session another node runs go to it first (`clusterForwardKey`).
// Upgrades go to the domain handlers by name ("computers-cdp", "computers-ws"), then to Next.
// Before any of them, the edge (lib/api/edge): requests no route serves, bodies
// past MAX_REQUEST_BODY_BYTES, the client address login limits key on, security headers.
import { EventEmitter } from "node:events";
import {
  createServer,
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type Server,
} from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import next from "next";
import { answerClientError, bareError, jsonForBareErrors } from "./lib/api/bare-errors";
import { requestBodyLimit } from "./lib/api/body-limit";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "./lib/api/client-address";
import { parseAddressRanges } from "./lib/ip-ranges";
import {
  drainLimit,
  jsonSurfaceOf,
  limitBody,
  refuseDeclaredLength,
  refuseRequestLine,
  refuseUpgrade,
  securityHeaders,
  surfaceOf,
  tooLargeError,
  incomingRequestId,
  withoutTrailingSlash,
} from "./lib/api/edge";
import { AppError } from "./lib/api/errors";
import { requestIdFrom } from "./lib/api/request";
import { scansAsJson, watchJsonShape } from "./lib/api/json-shape";
import { AddressSlots, handshakeProblem, tooManyFromAddress } from "./lib/api/upgrade-guard";
import { renderError } from "./lib/api/render";
import { getEnv } from "./lib/env";
import { clusterForwardKey, httpHandlersKey, shutdownKey, upgradeHandlersKey } from "./lib/process-handles";
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
  // A route that did not read the body may have answered before the body's refusal.
  if (res.writableEnded) return;
  const { status, headers, body } = renderError(error, surfaceOf(req.url ?? "/"), requestId);
  if (!res.headersSent)
    res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body), connection: "close" });
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
const SECURITY_HEADERS = Object.entries(securityHeaders(false, dev));
const SECURITY_HEADERS_HTTPS = Object.entries(securityHeaders(true, dev));

// Node checks the two request timeouts only this often (30 s by default).
const TIMEOUT_CHECK_MS = 1_000;

/**
 * Every answer's response: a CLOSE_AFTER status is announced in it (so keep-alive
 * clients do not reuse the socket), then enforced once it is written. On the
 * prototype rather than wrapped per request: no closure or listener per answer.
 */
class EdgeResponse extends ServerResponse {
  override writeHead(
    statusCode: number,
    statusMessage?: string,
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this;
  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, ...rest: unknown[]): this {
    if (CLOSE_AFTER.has(statusCode) && !this.headersSent) {
      this.setHeader("connection", "close");
      this.once("finish", () => closeSoon(this.req.socket));
    }
    return super.writeHead(statusCode, ...(rest as [string?]));
  }
}

// Node's own answer to a request without Host is a bare 400: the handler answers it in JSON instead.
const server = createServer(
  { connectionsCheckingInterval: TIMEOUT_CHECK_MS, ServerResponse: EdgeResponse, requireHostHeader: false },
  (req, res) => {
    const requestId = incomingRequestId(req);
    req.headers["x-request-id"] = requestId;
    res.setHeader("x-request-id", requestId);
    req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(
      req.socket.remoteAddress,
      req.headers["x-forwarded-for"],
      trustedProxies,
    );
    for (const [name, value] of req.headers["x-forwarded-proto"] === "https"
      ? SECURITY_HEADERS_HTTPS
      : SECURITY_HEADERS)
      res.setHeader(name, value);
    const refusal = refuseRequestLine(req.method ?? "GET", req.url ?? "/");
    if (refusal) return refuse(req, res, refusal, requestId);
    if (req.headers.host === undefined && req.httpVersionMinor >= 1) {
      return refuse(
        req,
        res,
        new AppError("invalid_request", "The request has no Host header (HTTP/1.1 requires one)"),
        requestId,
      );
    }
    const bodyLimit = requestBodyLimit(req.method, req.url, env);
    const declaredTooLarge = refuseDeclaredLength(req.headers["content-length"], bodyLimit);
    if (declaredTooLarge) {
      // Drained first (see drainLimit), unless it is past all reason.
      if (Number(req.headers["content-length"]) > drainLimit(bodyLimit))
        return refuse(req, res, declaredTooLarge, requestId);
      req.once("end", () => refuse(req, res, declaredTooLarge, requestId)).resume();
      return;
    }
    // Node's parser delivers no more body than a declared length, which is within the limit here:
    // only a chunked body must be counted as it arrives.
    if (req.headers["content-length"] === undefined) {
      limitBody(req, bodyLimit, () => refuse(req, res, tooLargeError(bodyLimit), requestId));
    }
    // Nesting and value counts are bounded as the body arrives, before anything parses it (docs/limits.md).
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (hasBody && scansAsJson(req.headers["content-type"])) {
      watchJsonShape(req, drainLimit(env.MAX_REQUEST_BODY_BYTES), (error) => refuse(req, res, error, requestId));
    }
    // An API path with a trailing slash is served as the path without it, not redirected (docs/security.md).
    const unslashed = withoutTrailingSlash(req.url ?? "/");
    if (unslashed !== null) req.url = unslashed;
    // A request for a session another node runs goes there (docs/cluster.md); the rest is served here.
    if (peekSingleton(clusterForwardKey)?.http(req, res, (request) => serveHere(request ?? req, res, requestId)))
      return;
    serveHere(req, res, requestId);
  },
);

function serveHere(req: IncomingMessage, res: ServerResponse, requestId: string) {
  // Domain HTTP fast paths (the model gateway) first: each returns true when it took the request.
  // They answer every error with a JSON body of their own, so only Next needs `jsonForBareErrors`.
  const fastPaths = peekSingleton(httpHandlersKey);
  if (fastPaths) for (const take of fastPaths.values()) if (take(req, res)) return;
  jsonForBareErrors(res, surfaceOf(req.url ?? "/"), requestId, jsonSurfaceOf(req.url ?? "/") !== null);
  void handle(req, res);
}

// Requests Node's parser refuses (unknown methods, oversized headers, timeouts) get JSON too.
server.on("clientError", (err, socket) => answerClientError(err, socket));

// `Expect` other than 100-continue: Node would answer a bare 417.
server.on("checkExpectation", (req, res) => refuse(req, res, bareError(417), incomingRequestId(req)));
// CONNECT (a proxy's tunnel): Node would close the socket without a word.
server.on("connect", (req, socket) => {
  socket.on("error", () => socket.destroy());
  refuseUpgrade(socket, refuseRequestLine("CONNECT", "/"), incomingRequestId(req));
  closeSoon(socket);
});

// Per client address: sockets held (connections), and upgrade requests and WebSockets among
// them. Trusted proxies hold every client's sockets, so only the upgrade limit (keyed on the
// forwarded address) applies to them.
const connectionSlots = new AddressSlots(env.HTTP_MAX_CONNECTIONS_PER_ADDRESS);
const upgradeSlots = new AddressSlots(env.WEBSOCKETS_MAX_PER_ADDRESS);
server.on("connection", (socket: Socket) => {
  const address = socket.remoteAddress ?? "";
  if (trustedProxies.has(address)) return;
  if (!connectionSlots.take(address)) {
    socket.on("error", () => socket.destroy());
    const error = tooManyFromAddress(
      "connections",
      env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      "HTTP_MAX_CONNECTIONS_PER_ADDRESS",
    );
    refuseUpgrade(socket, error, requestIdFrom(null));
    return closeSoon(socket);
  }
  socket.once("close", () => connectionSlots.give(address));
});

// Every upgrade request is answered: a WebSocket endpoint upgrades it or refuses it with a
// status; any other path gets a JSON 404 and the socket is closed (none is left open).
server.on("upgrade", (req, socket, head) => {
  // Node no longer watches an upgraded socket: a reset must not become an uncaught error.
  socket.on("error", () => socket.destroy());
  const requestId = incomingRequestId(req);
  // Carried to the owner when the upgrade is forwarded (one id across nodes).
  req.headers["x-request-id"] = requestId;
  const surface = surfaceOf(req.url ?? "/");
  const address = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxies);
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  if (!upgradeSlots.take(address)) {
    refuseUpgrade(
      socket,
      tooManyFromAddress("WebSocket upgrades", env.WEBSOCKETS_MAX_PER_ADDRESS, "WEBSOCKETS_MAX_PER_ADDRESS"),
      requestId,
      surface,
    );
    return closeSoon(socket);
  }
  socket.once("close", () => upgradeSlots.give(address));
  const refusal = refuseRequestLine(req.method ?? "GET", req.url ?? "/") ?? handshakeProblem(req);
  if (refusal) {
    refuseUpgrade(socket, refusal, requestId, surface);
    return closeSoon(socket);
  }
  if (peekSingleton(clusterForwardKey)?.upgrade(req, socket, head, () => upgradeHere(req, socket, head, requestId)))
    return;
  upgradeHere(req, socket, head, requestId);
});

function upgradeHere(req: IncomingMessage, socket: Duplex, head: Buffer, requestId: string) {
  for (const take of peekSingleton(upgradeHandlersKey)?.values() ?? []) if (take(req, socket, head)) return;
  // Next serves WebSockets only for the dev server's hot reload.
  if (dev && (req.url ?? "").startsWith("/_next/")) return void nextUpgrade(req, socket, head);
  const path = (req.url ?? "/").split("?", 1)[0].slice(0, 200);
  refuseUpgrade(
    socket,
    new AppError("not_found", `No WebSocket endpoint at ${path}`, { detail: "no_websocket_endpoint" }),
    requestId,
    surfaceOf(req.url ?? "/"),
  );
  closeSoon(socket);
}

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
