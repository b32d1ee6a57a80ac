// Placement of creates (docs/cluster.md "Placement"): POST /computers and the
// dashboard's POST /api/sessions start the session on the node `chooseNode`
// picks from the live nodes' capacities and their exact loads; a create handed
// on goes through the same signed forwarding as any session request.
import type { IncomingMessage } from "node:http";
import type { ClusterNode } from "@/lib/cluster/cluster-node";
import { callerOf, signedTarget, type ForwardTarget } from "@/lib/cluster/forward-plan";
import { leaseState } from "@/lib/cluster/lease";
import { chooseNode, type Candidate } from "@/lib/cluster/placement";
import { clusterSessions } from "@/lib/cluster/ports";

/** The surface of a create request, or null when the request is not one. */
export function createSurface(req: IncomingMessage): "computers" | "dashboard" | null {
  if (req.method !== "POST") return null;
  const path = (req.url ?? "/").split("?", 1)[0];
  return path === "/computers" ? "computers" : path === "/api/sessions" ? "dashboard" : null;
}

/** The node to hand the create to, or null to start it here. */
export async function planCreate(
  node: ClusterNode,
  req: IncomingMessage,
  surface: "computers" | "dashboard",
): Promise<ForwardTarget | null> {
  const caller = await callerOf(req, surface);
  if (caller === null || caller === "token") return null;
  const now = new Date();
  const live = node.nodes().filter((n) => n.id === node.id || leaseState(n, now) === "live");
  if (live.length < 2) return null;
  const loads = await clusterSessions().liveLoads(caller.organizationId);
  const candidates: Candidate[] = live.map((n) => ({
    id: n.id,
    url: n.url,
    slots: n.id === node.id && node.draining ? 0 : n.browserSlots,
    load: loads.all.get(n.id) ?? 0,
    organizationLoad: loads.organizationBrowsers.get(n.id) ?? 0,
  }));
  const chosen = chooseNode(candidates, node.id);
  if (chosen === node.id) return null;
  const target = candidates.find((c) => c.id === chosen)!;
  return signedTarget(node, req, { nodeId: target.id, url: target.url }, caller, false);
}
