// npm run bench:load — the load suite's traffic as a benchmark (tests/hardening/mixed-load):
// a server of its own (production build), 50 live browser sessions, 200 req/s of mixed
// reads (GET /computers/{id}, list), actions (screenshot, click, keypress) and local model
// calls from a paced, open-loop client, then 20 creates at once. Prints p50/p99 per class
// and the p99 of all traffic due in the 10 s after the burst, against its 200 ms target.
// Needs `npm run build` first.
//   BENCH_LOAD_SECONDS=30  BENCH_LOAD_RATE=200  BENCH_LOAD_SESSIONS=50  BENCH_LOAD_BURST=20
//   BENCH_LOAD_MIX=read=35,list=15,screenshot=5,mouse=20,key=15,model=10 (weights out of 100)
import os from "node:os";
import { createOrgKey, startServer } from "../tests/api/harness";
import { startSite } from "../tests/api/computers-fixtures";
import {
  DEFAULT_MIX,
  parseMix,
  percentile,
  runMixedLoad,
  summarize,
  SUMMARY_HEADER,
} from "../tests/hardening/mixed-load";
import { printSummary } from "../tests/hardening/host-census";

const STEADY = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 200);
const SESSIONS = Number(process.env.BENCH_LOAD_SESSIONS ?? 50);
const BURST = Number(process.env.BENCH_LOAD_BURST ?? 20);
const MIX = process.env.BENCH_LOAD_MIX ? parseMix(process.env.BENCH_LOAD_MIX) : DEFAULT_MIX;
const TARGET_MS = 200;

const site = await startSite();
const server = await startServer({ env: { LOG_LEVEL: "warn" } });
console.error(`[bench:load] server up at ${server.url}`);
try {
  const keys = await Promise.all([createOrgKey(server, "Bench A"), createOrgKey(server, "Bench B")]);
  const before = os.loadavg();
  const result = await runMixedLoad({
    base: server.url,
    keys,
    pageUrl: `${site.url}/form`,
    sessions: SESSIONS,
    ratePerSecond: RATE,
    steadySeconds: STEADY,
    burstCreates: BURST,
    afterBurstSeconds: 10,
    model: "svc.sm-1",
    mix: MIX,
    log: (line) => console.error(`[bench:load] ${line}`),
  });
  const la = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
  printSummary(
    `bench:load: ${RATE} req/s on ${SESSIONS} sessions for ${STEADY} s, then ${BURST} creates at once, ` +
      `mix ${MIX.map(([c, w]) => `${c} ${w}`).join(", ")} ` +
      `(load average before ${la(before)}, after ${la(result.loadAverage)}; ${os.cpus().length} cores)`,
    SUMMARY_HEADER,
    summarize(result, MIX),
  );
  const after = result.samples
    .filter((s) => s.dueAt >= result.burstAt && s.dueAt < result.burstAt + 10_000 && !s.error)
    .map((s) => s.ms);
  const steady = result.samples.filter((s) => s.dueAt < result.burstAt && !s.error).map((s) => s.ms);
  const errors = result.samples.filter((s) => s.error).length + result.burstErrors.length;
  const p99 = percentile(after, 99);
  printSummary(
    "bench:load: targets",
    ["measure", "result", "target"],
    [
      ["errors", String(errors), "0"],
      ["p99 steady", `${percentile(steady, 99).toFixed(1)} ms`, "-"],
      [
        "p99 in the 10 s after the burst",
        `${p99.toFixed(1)} ms`,
        `≤ ${TARGET_MS} ms ${p99 <= TARGET_MS ? "(met)" : "(MISSED)"}`,
      ],
    ],
  );
  for (const e of [
    ...result.samples
      .filter((s) => s.error)
      .slice(0, 5)
      .map((s) => s.error),
    ...result.burstErrors.slice(0, 5),
  ])
    console.log(`error: ${e}`);
} finally {
  await server.destroy();
  await site.close();
}
