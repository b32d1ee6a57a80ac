// npm run bench:cluster — a cluster on this machine (docs/cluster.md), in three parts:
//  1. scaling: creates/s and live-action throughput with 1, 2 and 3 nodes (bench/cluster-scale.ts);
//  2. forwarding: the added latency of a request forwarded by another node (bench/cluster-forwarding.ts);
//  3. the burst: live sessions' latency while a burst of creates starts on one node, against the
//     same live traffic alone, with start admission as configured and with it opened wide
//     (bench/cluster-burst.ts).
// Figures, not assertions. All nodes share this machine's cores: more nodes here add no CPU, so
// the scaling rows show what the cluster costs, not what nodes on machines of their own gain.
//   BENCH_CLUSTER_REQUESTS=200 BENCH_CLUSTER_CREATES=12 BENCH_CLUSTER_SECONDS=8
//   BENCH_CLUSTER_BURST=20 BENCH_CLUSTER_FLOOR_SECONDS=8 BENCH_CLUSTER_BURST_CONCURRENCY=1,20
//   BENCH_CLUSTER_STANDBY_REFILL (BROWSER_STANDBY_REFILL_CONCURRENCY of the burst's node; unset: its default)
//   BENCH_CLUSTER_PARTS=scale,forwarding,burst
import { startPostgres } from "../scripts/setup/postgres.mjs";
import { createOrgKey, startServer, type TestServer } from "../tests/api/harness";
import { measureBurst } from "./cluster-burst";
import { forwardingRows } from "./cluster-forwarding";
import { ratio, summary } from "./cluster-live";
import { measureOn, type ScaleFigures } from "./cluster-scale";
import { pct, printTable } from "./timing";

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CREATES = setting("BENCH_CLUSTER_CREATES", 12);
const SECONDS = setting("BENCH_CLUSTER_SECONDS", 8);
const BURST = setting("BENCH_CLUSTER_BURST", 20);
const FLOOR_SECONDS = setting("BENCH_CLUSTER_FLOOR_SECONDS", 8);
const BURST_CONCURRENCY = (process.env.BENCH_CLUSTER_BURST_CONCURRENCY ?? "1,20").split(",").map(Number);
const PARTS = (process.env.BENCH_CLUSTER_PARTS ?? "scale,forwarding,burst").split(",");

const pg = await startPostgres();
process.env.CABIN_TEST_DATABASE_URL = pg.url;
const nodes: TestServer[] = [];
try {
  const env = { LOG_LEVEL: "warn", ORG_MAX_BROWSER_SESSIONS: "64" };
  const scale: ScaleFigures[] = [];
  let forwarding: string[][] = [];
  let key = "";
  for (let n = 1; n <= 3 && (PARTS.includes("scale") || (PARTS.includes("forwarding") && n <= 2)); n++) {
    nodes.push(await startServer({ env, databaseUrl: nodes[0]?.databaseUrl }));
    if (n === 1) key = await createOrgKey(nodes[0]!, "Bench Cluster");
    if (PARTS.includes("scale")) scale.push(await measureOn(nodes, { creates: CREATES, seconds: SECONDS, key }));
    if (n === 2 && PARTS.includes("forwarding")) forwarding = await forwardingRows(nodes[0]!, nodes[1]!, key);
  }
  for (const node of nodes.slice(1)) await node.stop();
  await nodes[0]?.stop();
  if (scale.length) {
    console.log(`\n## Scaling: ${CREATES} creates at once, then ${SECONDS} s of screenshot loops on them\n`);
    const one = scale[0]!;
    printTable(
      scale.flatMap((s) => [
        [
          `${s.nodes} node(s): creates/s`,
          s.createsPerSecond.toFixed(2),
          ratio(s.createsPerSecond, one.createsPerSecond),
        ],
        [
          `${s.nodes} node(s): screenshots/s`,
          `${s.actionsPerSecond.toFixed(1)} (${summary(s.actionLatencies)})`,
          ratio(s.actionsPerSecond, one.actionsPerSecond),
        ],
      ]),
    );
  }
  if (forwarding.length) {
    console.log("\n## Forwarding: the same requests to the session's node and through another node\n");
    printTable(forwarding);
  }
  if (PARTS.includes("burst")) {
    console.log(`\n## Burst: ${BURST} creates at once on one node, 2 live sessions' screenshot loops\n`);
    const rows: string[][] = [];
    for (const concurrency of BURST_CONCURRENCY) {
      const b = await measureBurst(concurrency, { burst: BURST, floorSeconds: FLOOR_SECONDS });
      const floor99 = pct(b.floor, 99);
      rows.push([`start concurrency ${concurrency}: live, no burst (floor)`, summary(b.floor), "—"]);
      rows.push([
        `start concurrency ${concurrency}: live during the burst`,
        summary(b.during),
        `p50 ${ratio(pct(b.during, 50), pct(b.floor, 50))}, p99 ${ratio(pct(b.during, 99), floor99)}; target p99 ` +
          `≤ 1000 ms`,
      ]);
      rows.push([`start concurrency ${concurrency}: the burst's creates`, `${b.createSeconds.toFixed(1)} s`, "—"]);
    }
    printTable(rows);
  }
} finally {
  for (const node of nodes) await node.destroy();
  await pg.stop();
}
