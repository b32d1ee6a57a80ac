// The session domain's answers to the cluster (its ports, lib/cluster/ports.ts), registered by `boot` before
// the node starts: where a session runs, this node's sessions and load, and a dead node's sessions ended as
// crashed at its last renewal (docs/cluster.md "Failure").
import { onNodeDeath, registerClusterPorts } from "@/lib/cluster/ports";
import { getSessionManager } from "@/lib/computers/registry";
import { endSessionsOfDeadNode, findComputerById, liveLoads } from "@/lib/computers/sessions/store";

export function registerSessionsWithCluster(): void {
  registerClusterPorts({
    sessions: {
      isHere: (id) => Boolean(getSessionManager().get(id)),
      async ownerOf(id) {
        const row = await findComputerById(id);
        return row && { hostId: row.hostId, organizationId: row.organizationId, live: row.status !== "terminated" };
      },
      liveLoads,
      liveCount: () => getSessionManager().liveCount,
      crashAllHere() {
        const manager = getSessionManager();
        for (const live of [...manager.sessionsView()]) void manager.terminate(live.id, "crashed").catch(() => {});
      },
    },
  });
  onNodeDeath("sessions", ({ id, lastSeen }) => endSessionsOfDeadNode({ hostId: id, at: lastSeen }));
}
