// bench:cluster, the burst (bench/cluster.ts): on one node, two live sessions run screenshot
// loops; first alone (the floor), then while a burst of creates starts. The figure is the live
// sessions' latency during the burst (its creates plus the 10 s after it began, whichever is
// longer) against the floor measured on the same server just before. Run once per start
// concurrency (SESSION_START_CONCURRENCY), so the effect of start admission shows in one run.
import { createOrgKey, startServer } from "../tests/api/harness";
import { type Client, createBurst, deleteAll, elapsed, liveLoops } from "./cluster-live";
import { timedClient } from "./timing";

export interface BurstFigures {
  concurrency: number;
  floor: number[];
  during: number[];
  creates: number;
  createSeconds: number;
}

/** BENCH_CLUSTER_FLOOR_SECONDS of live traffic alone, then the same during BENCH_CLUSTER_BURST creates. */
export async function measureBurst(
  concurrency: number,
  setup: { burst: number; floorSeconds: number },
): Promise<BurstFigures> {
  const server = await startServer({
    env: {
      LOG_LEVEL: "warn",
      SESSION_START_CONCURRENCY: String(concurrency),
      ORG_MAX_BROWSER_SESSIONS: "64",
      // Standby refills take start slots only when no create waits (docs/cluster.md "Start admission").
      BROWSER_STANDBY_REFILL_CONCURRENCY: process.env.BENCH_CLUSTER_STANDBY_REFILL,
    },
  });
  try {
    const client: Client = timedClient(server.url, await createOrgKey(server, "Bench Burst"));
    const live = [];
    for (let i = 0; i < 2; i++) live.push((await client("POST", "/computers", { kind: "browser" })).body.id as string);
    const targets = live.map((id) => ({ client, id }));
    await liveLoops(targets, elapsed(2000)); // warm-up: first screenshots compile and size the page
    const floor = await liveLoops(targets, elapsed(setup.floorSeconds * 1000));
    const burst = createBurst([client], setup.burst);
    const during = await liveLoops(targets, Promise.all([burst, elapsed(10_000)]));
    const made = await burst;
    await deleteAll(client, [...made.ids, ...live]);
    return {
      concurrency,
      floor: floor.latencies,
      during: during.latencies,
      creates: setup.burst,
      createSeconds: made.seconds,
    };
  } finally {
    await server.stop();
    await server.destroy();
  }
}
