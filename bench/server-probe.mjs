// Loaded into the Cabin server by bench:models (NODE_OPTIONS=--import), never
// by the product: what stalls the server's event loop while the bench runs.
// Event-loop delay (perf_hooks.monitorEventLoopDelay), garbage-collection
// pauses (PerformanceObserver on "gc" entries) and the usage writes the server
// announces on the "cabin:usage-write" diagnostics channel ({rows, ms}). On
// SIGUSR2 it writes what it saw since the last signal to CABIN_PROBE_FILE as
// JSON and starts over, so the bench reads one window per phase.
import { subscribe } from "node:diagnostics_channel";
import { renameSync, writeFileSync } from "node:fs";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const out = process.env.CABIN_PROBE_FILE;
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();

// kind: 1 scavenge (young generation), 2 mark-compact minor, 4 mark-sweep-compact (full), 8 incremental marking, 16
// weak callbacks.
let gc = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gc.push({ ms: e.duration, kind: e.detail?.kind ?? e.kind });
}).observe({ entryTypes: ["gc"] });

let writes = [];
subscribe("cabin:usage-write", (m) => writes.push(m));

const ms = (ns) => ns / 1e6;
process.on("SIGUSR2", () => {
  const stats = {
    loop: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max), count: loop.count },
    gc,
    writes,
  };
  loop.reset();
  gc = [];
  writes = [];
  if (!out) return;
  // Written aside then renamed, so the bench never reads half a file.
  writeFileSync(`${out}.tmp`, JSON.stringify(stats));
  renameSync(`${out}.tmp`, out);
});
