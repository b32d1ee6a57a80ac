// Body-addressed routes (BODY_ROUTES in forward-path.ts: a task started on an existing session, an MCP tool
// call) in the one forwarder (docs/cluster.md "Forwarding"): their small JSON body is read here first, the
// session it names decides where the request goes, and the bytes as read go on, to the session's node or to
// this node's handlers, which read them as if they came from the socket.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { ClusterNode } from "@/lib/cluster/cluster-node";
import { callerOf, signedTarget, type ForwardTarget } from "@/lib/cluster/forward-plan";
import { clusterSessions } from "@/lib/cluster/ports";

/**
 * The request's whole body, or null when the request is answered meanwhile (the server's own body limit and
 * JSON shape checks in front of this answer a body past them and keep its end from any reader) or dropped.
 */
export function readWholeBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const stop = () => resolve(null);
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", stop);
    res.once("finish", stop);
    res.once("close", stop);
  });
}

/**
 * The request as this node's handlers read it once its body was read here: the same socket, method, URL and
 * headers, with the buffered bytes as its body.
 */
export class BufferedRequest extends http.IncomingMessage {
  constructor(original: IncomingMessage, body: Buffer) {
    super(original.socket);
    this.method = original.method;
    this.url = original.url;
    this.headers = original.headers;
    this.rawHeaders = original.rawHeaders;
    this.httpVersion = original.httpVersion;
    this.httpVersionMajor = original.httpVersionMajor;
    this.httpVersionMinor = original.httpVersionMinor;
    this.complete = true;
    if (body.length > 0) this.push(body);
    this.push(null);
  }

  // The socket belongs to the original request and its response: a copy that is dropped unread must not close it.
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    callback(error);
  }
}

/**
 * The owner to send a body-addressed request to, or null to serve here; planned like a path's (`planForward`):
 * this node's session, an unknown or ended one, a caller who is not authenticated or not of the session's
 * organization are answered here, and a session whose node's lease lapsed is ended first (`reap`).
 */
export async function planBodyForward(
  node: ClusterNode,
  req: IncomingMessage,
  sessionId: string,
  surface: "computers" | "dashboard",
): Promise<ForwardTarget | null> {
  if (clusterSessions().isHere(sessionId)) return null;
  const row = await clusterSessions().ownerOf(sessionId);
  if (!row || !row.live || row.hostId === node.id) return null;
  const url = await node.liveUrlOf(row.hostId);
  if (!url) {
    await node.reap(row.hostId); // its sessions end; the answer here is the usual one for an ended session
    return null;
  }
  const caller = await callerOf(req, surface);
  if (caller === null || caller === "token" || caller.organizationId !== row.organizationId) return null;
  return signedTarget(node, req, { nodeId: row.hostId, url }, caller, false);
}
