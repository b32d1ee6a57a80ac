// The one forwarding layer, which the custom server consults before anything else
// (clusterForwardKey; docs/cluster.md "Forwarding"). A request signed by
// another node is verified and served here with the caller's identity; a
// request for a session or task another live node runs, named by its path or
// its body (forward-path.ts), is sent to that node and its answer streamed back
// (plain, SSE and NDJSON alike: nothing of the answer is buffered); everything
// else is served here.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { AppError } from "@/lib/api/errors";
import { surfaceOf } from "@/lib/api/edge";
import { renderError } from "@/lib/api/render";
import { clusterKey } from "@/lib/cluster/cluster-key";
import { currentNode } from "@/lib/cluster/current-node";
import { BufferedRequest, planBodyForward, readWholeBody } from "@/lib/cluster/forward-body";
import type { ClusterNode } from "@/lib/cluster/cluster-node";
import { createSurface, planCreate } from "@/lib/cluster/forward-create";
import { bodyRouteOf, bodySessionOf, sessionIdOfPath, taskIdOfPath, type BodyRoute } from "@/lib/cluster/forward-path";
import { FORWARD_HEADERS, planForward, type ForwardTarget } from "@/lib/cluster/forward-plan";
import { FORWARDED_MEMBER_HEADER, forwardedHeaders } from "@/lib/cluster/forwarded-identity";
import { decodeIdentity, verifyForward } from "@/lib/cluster/signature";
import { requestBodyLimit } from "@/lib/api/body-limit";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import type { ServeHere } from "@/lib/process-handles";

/** How long connecting to the owner may take before the request fails (never a hang). */
export const CONNECT_TIMEOUT_MS = 5_000;

// Keep-alive sockets between nodes: most forwarded requests skip the connect.
// No cap on sockets per node: a stream (SSE, exec) holds one for its whole life, and a queued request would hang.
const agent = new http.Agent({ keepAlive: true });

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === "string" ? value : null;
};

/**
 * A request another node signed: null when it carries no signature; else the
 * refusal, or "ok" once the verified identity is in place for the handlers.
 */
export function acceptForwarded(req: IncomingMessage): AppError | "ok" | null {
  // Only this layer may set the member header: a client's own copy is dropped.
  delete req.headers[FORWARDED_MEMBER_HEADER];
  const signature = header(req, FORWARD_HEADERS.signature);
  if (signature === null) return null;
  const from = header(req, FORWARD_HEADERS.from) ?? "";
  const identity = header(req, FORWARD_HEADERS.identity);
  const fields = {
    method: req.method ?? "GET",
    path: req.url ?? "/",
    time: Number(header(req, FORWARD_HEADERS.time)),
    identity,
    requestId: header(req, "x-request-id") ?? "",
    from,
  };
  const outcome = verifyForward(clusterKey(), fields, signature);
  if (outcome !== "ok") {
    getLogger().warn({ from, outcome, path: fields.path.split("?", 1)[0] }, "refused a forwarded request");
    const why =
      outcome === "stale"
        ? "its time is outside the allowed clock window (are the nodes' clocks in sync?)"
        : "its node signature is invalid (do all nodes share CABIN_SECRET?)";
    return new AppError("unauthorized", `A forwarded request from node '${from}' was refused: ${why}`, {
      detail: "invalid_node_signature",
    });
  }
  for (const name of Object.values(FORWARD_HEADERS)) delete req.headers[name];
  delete req.headers.authorization;
  const decoded = identity ? decodeIdentity(identity) : null;
  if (decoded) Object.assign(req.headers, forwardedHeaders(decoded));
  return "ok";
}

function refuse(req: IncomingMessage, res: ServerResponse, error: AppError) {
  const { status, headers, body } = renderError(error, surfaceOf(req.url ?? "/"), header(req, "x-request-id") ?? "");
  if (!res.headersSent) res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

// Hop-by-hop headers of the owner's answer; the framing is this connection's own.
const ANSWER_DROPPED = new Set(["connection", "keep-alive", "transfer-encoding"]);

export function forwardHttp(req: IncomingMessage, res: ServerResponse, here: ServeHere): boolean {
  const node = currentNode();
  if (!node) return false;
  const accepted = acceptForwarded(req);
  if (accepted === "ok") return false;
  if (accepted) {
    refuse(req, res, accepted);
    return true;
  }
  const byBody = bodyRouteOf(req.method, req.url ?? "/");
  if (byBody) {
    void forwardBodyAddressed(node, req, res, byBody, here).catch((err) => routingFailed(req, res, err));
    return true;
  }
  const creating = createSurface(req);
  if (!creating && !sessionIdOfPath(req.url ?? "/") && !taskIdOfPath(req.url ?? "/")) return false;
  (creating ? planCreate(node, req, creating) : planForward(node, req, false)).then(
    (target) => (target ? send(req, res, target, here) : here()),
    (err) => routingFailed(req, res, err),
  );
  return true;
}

function routingFailed(req: IncomingMessage, res: ServerResponse, err: unknown) {
  getLogger().error({ err }, "could not decide where a session request goes");
  refuse(req, res, new AppError("internal", "Could not route the request"));
}

/** A body-addressed route: its body is read first, and the bytes go on to the session's node or to Next here. */
async function forwardBodyAddressed(
  node: ClusterNode,
  req: IncomingMessage,
  res: ServerResponse,
  route: BodyRoute,
  here: ServeHere,
) {
  const body = await readWholeBody(req, res);
  if (body === null) return; // answered already (past the body limits) or dropped
  const serveHere = () => here(new BufferedRequest(req, body));
  const limit = requestBodyLimit(req.method, req.url, getEnv());
  const sessionId = bodySessionOf(route, body, limit);
  if (!sessionId) return serveHere();
  try {
    const target = await planBodyForward(node, req, sessionId, route.surface);
    if (target) send(req, res, target, serveHere, body);
    else serveHere();
  } catch (err) {
    routingFailed(req, res, err);
  }
}

/**
 * Opens the request to the owner; the body is sent only once connected, so a refused connection can still be answered
 * here.
 */
export function openToOwner(target: ForwardTarget, req: IncomingMessage, onConnected: () => void): http.ClientRequest {
  const owner = new URL(target.url);
  // The path goes as it came (no normalization): the signature covers it byte for byte.
  const outgoing = http.request({
    hostname: owner.hostname,
    port: owner.port,
    path: req.url ?? "/",
    method: req.method,
    headers: target.headers,
    agent,
  });
  outgoing.once("socket", (socket) => {
    if (!socket.connecting) return onConnected();
    const timer = setTimeout(
      () => outgoing.destroy(Object.assign(new Error("connect timed out"), { code: "ETIMEDOUT" })),
      CONNECT_TIMEOUT_MS,
    );
    socket.once("connect", () => {
      clearTimeout(timer);
      onConnected();
    });
    socket.once("close", () => clearTimeout(timer));
  });
  return outgoing;
}

/** What a node that could not be reached means for the request: the session ended with it (409 here), or try again. */
export async function afterUnreachable(
  target: ForwardTarget,
  err: NodeJS.ErrnoException,
  here: ServeHere,
  fail: (error: AppError) => void,
) {
  const node = currentNode();
  if (node && err.code === "ECONNREFUSED") {
    await node
      .reap(target.nodeId, { unreachable: true })
      .catch((e) => getLogger().warn({ err: e }, "could not end an unreachable node's sessions"));
    return here();
  }
  fail(
    new AppError(
      "unavailable",
      `Node '${target.nodeId}' that runs this session did not answer (${err.code ?? err.message}); try again`,
      {
        detail: "node_unreachable",
        headers: { "retry-after": "2" },
      },
    ),
  );
}

/** Sends the request to its owner (the body piped as it arrives, or `body` when it was read here already). */
function send(req: IncomingMessage, res: ServerResponse, target: ForwardTarget, here: () => void, body?: Buffer) {
  let connected = false;
  const outgoing = openToOwner(target, req, () => {
    connected = true;
    if (body) outgoing.end(body);
    else req.pipe(outgoing);
  });
  outgoing.on("response", (answer) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !ANSWER_DROPPED.has(name)) headers[name] = value;
    res.writeHead(answer.statusCode ?? 502, headers);
    // Streams (SSE, NDJSON) go out as they arrive; each chunk is written at once.
    answer.pipe(res);
    answer.on("error", () => res.destroy());
  });
  outgoing.on("error", (err: NodeJS.ErrnoException) => {
    if (res.headersSent) return void res.destroy();
    if (!connected) return void afterUnreachable(target, err, here, (error) => refuse(req, res, error));
    refuse(
      req,
      res,
      new AppError("unavailable", `Node '${target.nodeId}' failed while answering: ${err.message}`, {
        detail: "node_unreachable",
      }),
    );
  });
  // A client that goes away (a closed SSE stream) ends the request to the owner too.
  res.on("close", () => {
    if (!res.writableFinished) outgoing.destroy();
  });
}
