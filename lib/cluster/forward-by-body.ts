// Requests that name their session in the body rather than the path (docs/cluster.md
// "Forwarding"): an agent task started on an existing session (`computer_id`) and an
// MCP tool call (`session_id`). The forwarding layer in front of Next cannot see
// them without reading the body, so the handler, once it has read it, asks
// `forwardToSessionNode`: when another live node runs the session, the request goes
// there, signed like any forwarded request, with the body as read; its answer
// (JSON or a stream) is the handler's answer.
import { AppError } from "@/lib/api/errors";
import { clusterKey } from "@/lib/cluster/cluster-key";
import { currentNode } from "@/lib/cluster/current-node";
import { FORWARD_HEADERS } from "@/lib/cluster/forward-plan";
import { encodeIdentity, signForward, type ForwardedIdentity } from "@/lib/cluster/signature";
import { getSessionManager } from "@/lib/computers/registry";
import { findComputerById } from "@/lib/computers/session-rows";
import { getLogger } from "@/lib/logger";

// What is not sent on: credentials (the signed identity replaces them), framing that
// fetch sets itself, and hop-by-hop headers.
const DROPPED = new Set([
  "authorization",
  "cookie",
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "expect",
  ...Object.values(FORWARD_HEADERS),
]);
// fetch decodes the owner's body, so its encoding and length no longer describe what is passed on.
const ANSWER_DROPPED = new Set(["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"]);

/**
 * The owner's answer when another live node runs `sessionId` for the caller's organization;
 * null to serve here (this node's session, an unknown or ended one, a foreign one, a lapsed node).
 */
export async function forwardToSessionNode(input: {
  req: Request;
  body: string;
  sessionId: string;
  caller: ForwardedIdentity;
}): Promise<Response | null> {
  const node = currentNode();
  if (!node || getSessionManager().get(input.sessionId)) return null;
  const row = await findComputerById(input.sessionId);
  if (!row || row.status === "terminated" || row.hostId === node.id) return null;
  if (row.organizationId !== input.caller.organizationId) return null;
  const url = await node.liveUrlOf(row.hostId);
  if (!url) {
    await node.reap(row.hostId); // its sessions end; the answer here is the usual 409
    return null;
  }
  const target = new URL(input.req.url);
  const path = target.pathname + target.search;
  const identity = encodeIdentity(input.caller);
  const requestId = input.req.headers.get("x-request-id") ?? "";
  const time = Date.now();
  const headers = new Headers();
  for (const [name, value] of input.req.headers) if (!DROPPED.has(name)) headers.set(name, value);
  headers.set(FORWARD_HEADERS.from, node.id);
  headers.set(FORWARD_HEADERS.time, String(time));
  headers.set(FORWARD_HEADERS.identity, identity);
  headers.set(
    FORWARD_HEADERS.signature,
    signForward(clusterKey(), { method: input.req.method, path, time, identity, requestId, from: node.id }),
  );
  let answer: Response;
  try {
    answer = await fetch(new URL(path, url), {
      method: input.req.method,
      headers,
      body: input.body,
      redirect: "manual",
      signal: input.req.signal,
    });
  } catch (err) {
    // Refused: the node is gone; its sessions end and the answer here is theirs.
    if ((err as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED") {
      await node.reap(row.hostId, { unreachable: true }).catch(() => {});
      return null;
    }
    getLogger().warn({ err, node: row.hostId }, "could not forward a request to the session's node");
    throw new AppError("unavailable", `Node '${row.hostId}' that runs session '${row.id}' did not answer; try again`, {
      detail: "node_unreachable",
      headers: { "retry-after": "2" },
    });
  }
  const passed = new Headers();
  for (const [name, value] of answer.headers) if (!ANSWER_DROPPED.has(name)) passed.append(name, value);
  return new Response(answer.body, { status: answer.status, headers: passed });
}
