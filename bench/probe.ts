// The bench side of bench/server-probe.mjs: loads it into the server, reads one
// window of its figures per bench phase (SIGUSR2), and turns them into a table
// row, so a p99 can be set beside what stalled the event loop meanwhile.
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

interface ProbeWindow {
  loop: { p50: number; p99: number; max: number; count: number };
  gc: { ms: number; kind: number }[];
  writes: { rows: number; ms: number }[];
}

/**
 * The env that loads the probe into a server; its figures go to `<dataDir>/probe.json`.
 * BENCH_NODE_FLAGS adds Node/V8 flags to the server (e.g. to try a GC setting).
 */
export function probeEnv(dir: string): Record<string, string> {
  return {
    NODE_OPTIONS:
      `--import ${path.join(import.meta.dirname, "server-probe.mjs")} ${process.env.BENCH_NODE_FLAGS ?? ""}`.trim(),
    CABIN_PROBE_FILE: path.join(dir, "probe.json"),
  };
}

/** The figures since the last call (the first call only starts the window). */
export async function readProbe(child: ChildProcess, dir: string): Promise<ProbeWindow> {
  const file = path.join(dir, "probe.json");
  rmSync(file, { force: true });
  child.kill("SIGUSR2");
  const deadline = Date.now() + 10_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error("the server probe did not answer (is bench/server-probe.mjs loaded?)");
    await new Promise((r) => setTimeout(r, 20));
  }
  return JSON.parse(readFileSync(file, "utf8")) as ProbeWindow;
}

const f = (ms: number) => ms.toFixed(2);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const top = (xs: number[]) => (xs.length ? Math.max(...xs) : 0);

/** One row: event-loop delay, GC pauses (young generation = kind 1, the rest), usage writes. */
export function probeRow(phase: string, w: ProbeWindow) {
  const young = w.gc.filter((g) => g.kind === 1).map((g) => g.ms);
  const other = w.gc.filter((g) => g.kind !== 1).map((g) => g.ms);
  const writes = w.writes.map((x) => x.ms);
  return {
    phase,
    "loop delay p50/p99/max ms": `${f(w.loop.p50)} / ${f(w.loop.p99)} / ${f(w.loop.max)}`,
    "scavenges n, total, max ms": `${young.length}, ${f(sum(young))}, ${f(top(young))}`,
    "other GC n, total, max ms": `${other.length}, ${f(sum(other))}, ${f(top(other))}`,
    "usage writes n, rows, max ms": `${writes.length}, ${sum(w.writes.map((x) => x.rows))}, ${f(top(writes))}`,
  };
}
