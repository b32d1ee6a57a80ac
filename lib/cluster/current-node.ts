// The one ClusterNode of this process, set by startCluster once registered.
import type { ClusterNode } from "@/lib/cluster/cluster-node";
import { peekSingleton, setSingleton, singletonKey } from "@/lib/singleton";

const clusterNodeKey = singletonKey<ClusterNode>("clusterNode");

/** This process's node, once registered (null before, and in processes that serve no requests). */
export function currentNode(): ClusterNode | null {
  return peekSingleton(clusterNodeKey) ?? null;
}

export function setCurrentNode(node: ClusterNode): void {
  setSingleton(clusterNodeKey, node);
}
