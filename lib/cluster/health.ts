// The cluster as /api/health and /metrics show it: this node (its id and start
// time, which a starting node's collision check reads) and every node's lease
// and load, read from the nodes table.
import { currentNode } from "@/lib/cluster/current-node";
import { leaseState } from "@/lib/cluster/lease";
import { listNodes } from "@/lib/cluster/nodes-store";

export type ClusterView = {
  ok: boolean;
  required: false;
  message?: string;
  node: { id: string; url: string; started_at: string } | null;
  shared: boolean;
  nodes: { id: string; url: string; state: "live" | "dead" | "reaped"; load: number; browser_slots: number; desktop_slots: number; lease_until: string; renewed_at: string }[];
};

export async function clusterHealth(): Promise<ClusterView> {
  const node = currentNode();
  const self = node ? { id: node.id, url: node.url, started_at: node.startedAt.toISOString() } : null;
  try {
    const now = new Date();
    const rows = await listNodes();
    return {
      ok: node !== null, required: false, ...(node ? {} : { message: "this node is not registered yet" }), node: self, shared: node?.shared ?? false,
      nodes: rows.map((n) => ({
        id: n.id, url: n.url, state: leaseState(n, now), load: n.load, browser_slots: n.browserSlots, desktop_slots: n.desktopSlots,
        lease_until: n.leaseUntil.toISOString(), renewed_at: n.renewedAt.toISOString(),
      })),
    };
  } catch (err) {
    return { ok: false, required: false, message: `nodes unreadable: ${(err as Error).message}`, node: self, shared: node?.shared ?? false, nodes: [] };
  }
}
