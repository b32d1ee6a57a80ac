// Where a request for one session goes (docs/cluster.md "Forwarding"): this
// process, or the live node that runs it, with the caller authenticated here
// and carried as a signed identity. Anything this process can answer itself
// (unknown or ended sessions, bad credentials, foreign organizations) is left
// to the handlers below, so every answer but the owner's is the usual one.
import type { IncomingMessage } from "node:http";
import { CLIENT_ADDRESS_HEADER } from "@/lib/api/client-address";
import { clusterKey } from "@/lib/cluster/cluster-key";
import type { ClusterNode } from "@/lib/cluster/cluster-node";
import { isSessionFilesPath, queryToken, sessionIdOfPath, taskIdOfPath } from "@/lib/cluster/forward-path";
import { encodeIdentity, signForward, type ForwardedIdentity } from "@/lib/cluster/signature";
import { clusterCallers, clusterSessions, clusterTasks } from "@/lib/cluster/ports";

/** The headers of a forwarded request that carry the forwarding node's signature. */
export const FORWARD_HEADERS = {
  from: "x-cabin-node",
  time: "x-cabin-node-time",
  identity: "x-cabin-node-identity",
  signature: "x-cabin-node-signature",
} as const;

export interface ForwardTarget {
  nodeId: string;
  url: string;
  /** The request's headers for the owner: credentials removed, signature added. */
  headers: Record<string, string | string[]>;
}

// Hop-by-hop headers and credentials never travel to the owner.
const DROPPED = new Set([
  "authorization",
  "cookie",
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  ...Object.values(FORWARD_HEADERS),
]);

function headersObject(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/**
 * Who is calling, as the handlers below would decide it; null when they would refuse (or the token decides, at the
 * owner).
 */
export async function callerOf(
  req: IncomingMessage,
  surface: "computers" | "dashboard",
): Promise<ForwardedIdentity | "token" | null> {
  if (surface === "dashboard") return clusterCallers().member(headersObject(req));
  if (req.headers.authorization) return clusterCallers().apiKey(req.headers.authorization);
  return queryToken(req.url ?? "/") !== null ? "token" : null;
}

/**
 * The owner to forward to, or null to serve here. A session whose node's lease
 * lapsed is ended first (`reap`), so the answer here is its 409.
 */
export async function planForward(
  node: ClusterNode,
  req: IncomingMessage,
  upgrade: boolean,
): Promise<ForwardTarget | null> {
  const target = sessionIdOfPath(req.url ?? "/");
  if (!target) return upgrade ? null : planTaskForward(node, req);
  // This node's own sessions are in memory: no lookup on their hot path.
  if (clusterSessions().isHere(target.id)) return null;
  const row = await clusterSessions().ownerOf(target.id);
  if (!row || row.hostId === node.id) return null;
  // An ended session's files stay on the node that ran it (docs/files.md "Clusters"); the rest is answered here.
  const ended = !row.live;
  if (ended && !isSessionFilesPath(req.url ?? "/")) return null;
  const url = await node.liveUrlOf(row.hostId);
  if (!url) {
    if (!ended) await node.reap(row.hostId);
    return null;
  }
  // A dashboard page's WebSocket (live view) brings its token, not the cookie's identity.
  const caller = await callerOf(req, upgrade ? "computers" : target.surface);
  if (caller === null) return null;
  if (caller !== "token" && caller.organizationId !== row.organizationId) return null;
  return signedTarget(node, req, { nodeId: row.hostId, url }, caller, upgrade);
}

/**
 * A request for a live agent task another live node runs goes there: its loop, pause,
 * resume, messages, stop and event stream are in that process. An ended task is answered here from its row;
 * so is a task whose node's lease lapsed, once that node's death is announced (`reap` fails its tasks), so
 * its stream ends with that failure rather than a 409.
 */
async function planTaskForward(node: ClusterNode, req: IncomingMessage): Promise<ForwardTarget | null> {
  const target = taskIdOfPath(req.url ?? "/");
  if (!target) return null;
  const row = await clusterTasks().ownerOf(target.id);
  if (!row?.live || row.hostId === node.id) return null;
  const url = await node.liveUrlOf(row.hostId);
  if (!url) {
    await node.reap(row.hostId); // its node's death fails the task (announceNodeDeath); the row answers here
    return null;
  }
  const caller = await callerOf(req, target.surface);
  if (caller === null || caller === "token" || caller.organizationId !== row.organizationId) return null;
  return signedTarget(node, req, { nodeId: row.hostId, url }, caller, false);
}

/** The owner's address with the request's headers for it: credentials dropped, the caller's identity signed. */
export function signedTarget(
  node: ClusterNode,
  req: IncomingMessage,
  owner: { nodeId: string; url: string },
  caller: ForwardedIdentity | "token",
  upgrade: boolean,
): ForwardTarget {
  const identity = caller === "token" ? null : encodeIdentity(caller);
  const requestId = String(req.headers["x-request-id"] ?? "");
  const time = Date.now();
  const method = req.method ?? "GET";
  const path = req.url ?? "/";
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !DROPPED.has(name)) headers[name] = value;
  if (upgrade) headers.connection = "Upgrade";
  // The client's address as this node judged it; the owner believes it when this node is in its TRUSTED_PROXIES.
  const client = req.headers[CLIENT_ADDRESS_HEADER];
  if (typeof client === "string" && client) headers["x-forwarded-for"] = client;
  Object.assign(headers, {
    [FORWARD_HEADERS.from]: node.id,
    [FORWARD_HEADERS.time]: String(time),
    ...(identity ? { [FORWARD_HEADERS.identity]: identity } : {}),
    [FORWARD_HEADERS.signature]: signForward(clusterKey(), { method, path, time, identity, requestId, from: node.id }),
  });
  return { ...owner, headers };
}
