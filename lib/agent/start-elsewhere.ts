// An agent task started on an existing session (`computer_id`) runs its loop in the
// process that runs the session, so in a cluster the start goes to that session's
// node (forwardToSessionNode, docs/cluster.md "Forwarding"); its later requests
// follow it there by task id.
import { forwardToSessionNode } from "@/lib/cluster/forward-by-body";
import type { ForwardedIdentity } from "@/lib/cluster/signature";

/** The owner node's answer to this start when another node runs its `computer_id`; null to start it here. */
export function startOnSessionNode(req: Request, body: unknown, caller: ForwardedIdentity): Promise<Response | null> {
  const computerId = (body as { computer_id?: unknown } | null)?.computer_id;
  if (typeof computerId !== "string" || !computerId) return Promise.resolve(null);
  return forwardToSessionNode({ req, body: JSON.stringify(body), sessionId: computerId, caller });
}
