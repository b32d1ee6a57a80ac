// Boot-time entry of the cluster (called first by `boot`, before sessions start:
// their recovery must not run beside a live node with this id). Registers the
// node, offers the forwarding layer to the custom server (clusterForwardKey),
// and returns the stop hook that releases the lease. A refusal ends the process:
// starting anyway would end another node's sessions.
import { ClusterNode, NodeStartRefused } from "@/lib/cluster/cluster-node";
import { forwardHttp } from "@/lib/cluster/forward";
import { forwardUpgrade } from "@/lib/cluster/forward-upgrade";
import { getLogger } from "@/lib/logger";
import { clusterForwardKey } from "@/lib/process-handles";
import { setSingleton } from "@/lib/singleton";
import { currentNode, setCurrentNode } from "@/lib/cluster/current-node";
import { registerIncarnationProbe } from "@/lib/cluster/start-checks";

export async function startCluster(): Promise<() => Promise<void>> {
  const node = new ClusterNode();
  // Before the start checks: they may probe this process's own address (a restart after kill -9).
  registerIncarnationProbe();
  try {
    await node.start();
  } catch (err) {
    if (!(err instanceof NodeStartRefused)) throw err;
    getLogger().fatal({ node: node.id }, err.message);
    console.error(`Cabin cannot start: ${err.message}`);
    process.exit(1);
  }
  setCurrentNode(node);
  if (node.shared) setSingleton(clusterForwardKey, { http: forwardHttp, upgrade: forwardUpgrade });
  getLogger().info({ node: node.id, url: node.url, shared: node.shared }, "node registered");
  return () => node.stop();
}

/**
 * Registered last by `boot`, so its stop hook runs first on SIGTERM: the node
 * drains (creates go to other nodes) before its sessions end.
 */
export async function startDrainOnStop(): Promise<(() => Promise<void>) | null> {
  const node = currentNode();
  return node?.shared ? () => node.drain() : null;
}
