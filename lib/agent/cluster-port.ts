// Agent tasks' answers to the cluster (lib/cluster/ports.ts), registered by `boot` before the node starts:
// where a task's loop runs, and a dead node's tasks failed with `node_lost` (docs/agent-tasks.md "Restarts").
import { failLeftoverTasks, findTaskHost } from "@/lib/agent/store";
import { onNodeDeath, registerClusterPorts } from "@/lib/cluster/ports";

export function registerTasksWithCluster(): void {
  registerClusterPorts({ tasks: { ownerOf: findTaskHost } });
  onNodeDeath("tasks", async ({ id, lastSeen }) => {
    const failed = await failLeftoverTasks({
      hostId: id,
      endReason: "node_lost",
      message:
        `The node '${id}' running this task stopped answering (last seen ${lastSeen.toISOString()}); its loop and ` +
        `its session ended with it`,
    });
    return failed.length;
  });
}
