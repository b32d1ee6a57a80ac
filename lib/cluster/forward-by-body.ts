// Requests that name their session in the body rather than the path (docs/cluster.md
// "Forwarding"; declared in BODY_ROUTES): an agent task started on an existing session
// (`computer_id`) and an MCP tool call (`session_id`). The forwarding layer in front of
// Next does not read bodies, so the handler, once it has read one, asks `forwardByBody`:
// when another live node runs the session the body names, the request goes there, signed
// like any forwarded request, with the body as read; its answer (JSON or a stream) is the
// handler's answer.
import { AppError } from "@/lib/api/errors";
import { clusterKey } from "@/lib/cluster/cluster-key";
import { currentNode } from "@/lib/cluster/current-node";
import { sessionIdOfBody } from "@/lib/cluster/forward-path";
import { FORWARD_HEADERS } from "@/lib/cluster/forward-plan";
import { encodeIdentity, signForward, type ForwardedIdentity } from "@/lib/cluster/signature";
import { clusterSessions } from "@/lib/cluster/ports";
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
 * The owner's answer when another live node runs the session the body names (`body`, parsed; `text`, as
 * read, else the parsed body again as JSON) for the caller's organization; null to serve here (no session
 * named, this node's session, an unknown or ended one, a foreign one, a lapsed node).
 */
export async function forwardByBody(input: {
  req: Request;
  body: unknown;
  text?: string;
  caller: ForwardedIdentity;
}): Promise<Response | null> {
  const node = currentNode();
  const sessionId = sessionIdOfBody(input.req.method, new URL(input.req.url).pathname, input.body);
  if (!node || !sessionId || clusterSessions().isHere(sessionId)) return null;
  const row = await clusterSessions().ownerOf(sessionId);
  if (!row || !row.live || row.hostId === node.id) return null;
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
      body: input.text ?? JSON.stringify(input.body),
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
    throw new AppError(
      "unavailable",
      `Node '${row.hostId}' that runs session '${sessionId}' did not answer; try again`,
      {
        detail: "node_unreachable",
        headers: { "retry-after": "2" },
      },
    );
  }
  const passed = new Headers();
  for (const [name, value] of answer.headers) if (!ANSWER_DROPPED.has(name)) passed.append(name, value);
  return new Response(answer.body, { status: answer.status, headers: passed });
}
