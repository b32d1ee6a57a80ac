// Memory of process trees, for the benchmark scripts: PSS (smaps_rollup) of
// every process whose root matches, and of all their descendants.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

function processes(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      out.push({ pid: Number(name), ppid: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]), cmdline });
    } catch {
      // exited
    }
  }
  return out;
}

/** PSS in MiB of the trees rooted at the processes `isRoot` picks, and how many processes they hold. */
export function treePssMiB(isRoot: (p: ProcessInfo) => boolean): { pss: number; processes: number } {
  const procs = processes();
  const tree = new Set(procs.filter(isRoot).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (!tree.has(p.pid) && tree.has(p.ppid)) tree.add(p.pid), (grew = true);
  }
  let kib = 0;
  for (const pid of tree) {
    try {
      kib += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {
      // exited
    }
  }
  return { pss: kib / 1024, processes: tree.size };
}
