// bench:cluster, scaling (bench/cluster.ts): with 1, 2 and 3 nodes on one PostgreSQL and
// this machine's cores, the rate of creates (a burst spread round-robin over the nodes, the
// wall time until the last answers) and the throughput of live actions (one screenshot loop
// per session just made, each through the node its create was sent to).
import type { TestServer } from "../tests/api/harness";
import { type Client, createBurst, deleteAll, elapsed, liveLoops } from "./cluster-live";
import { timedClient } from "./timing";

export interface ScaleFigures {
  nodes: number;
  createsPerSecond: number;
  actionsPerSecond: number;
  actionLatencies: number[];
}

/** Creates/s and live actions/s across `nodes` (a key of their shared database). */
export async function measureOn(
  nodes: TestServer[],
  setup: { creates: number; seconds: number; key: string },
): Promise<ScaleFigures> {
  const clients: Client[] = nodes.map((n) => timedClient(n.url, setup.key));
  const made = await createBurst(clients, setup.creates);
  const targets = made.ids.map((id, i) => ({ client: clients[i % clients.length]!, id }));
  await liveLoops(targets, elapsed(2000)); // warm-up
  const run = await liveLoops(targets, elapsed(setup.seconds * 1000));
  await deleteAll(clients[0]!, made.ids);
  return {
    nodes: nodes.length,
    createsPerSecond: setup.creates / made.seconds,
    actionsPerSecond: run.latencies.length / run.seconds,
    actionLatencies: run.latencies,
  };
}
