// bench:live's measuring parts: CPU of processes read from /proc (a server's
// own process alone, its Chromium with Chromium's children, a desktop's
// processes), a /ws viewer that records frames, and key press → first frame
// showing it. Nothing here talks to a particular build: bench/live.ts runs it
// against this checkout's server and the BENCH_BASELINE one alike.
import { readdirSync, readFileSync } from "node:fs";
import WebSocket from "ws";
import { pct } from "./timing";

const TICKS = 100; // USER_HZ

export interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  ticks: number;
  reaped: number;
  nested: boolean;
  env: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      const nested = (/^NSpid:\s+(.*)$/m.exec(status)?.[1].trim().split(/\s+/).length ?? 1) > 1;
      let env = "";
      try {
        env = readFileSync(`/proc/${name}/environ`, "latin1");
      } catch {
        /* not ours */
      }
      out.push({
        pid: Number(name),
        ppid: Number(f[1]),
        comm,
        ticks: Number(f[11]) + Number(f[12]),
        reaped: Number(f[13]) + Number(f[14]),
        nested,
        env,
      });
    } catch {
      // exited
    }
  }
  return out;
}

/** What a CPU figure counts: the processes `pick` selects, with their descendants unless `alone`. */
export interface Part {
  pick: (p: Proc) => boolean;
  alone?: boolean;
}

/** CPU ticks of a part now (a process that exited meanwhile drops out: compare parts that do not churn). */
export function ticksOf(part: Part): number {
  const all = processes();
  const chosen = new Set(all.filter(part.pick).map((p) => p.pid));
  for (let grew = !part.alone; grew; ) {
    grew = false;
    for (const p of all)
      if (!chosen.has(p.pid) && chosen.has(p.ppid)) {
        chosen.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => chosen.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0);
}

/** CPU ticks of a process's children that have exited (short-lived helpers such as xdotool). */
export function reapedTicks(pid: number): number {
  return processes().find((p) => p.pid === pid)?.reaped ?? 0;
}

/** The server process alone: before, the figure included every descendant, Chromium too. */
export const serverAlone = (pid: number): Part => ({ pick: (p) => p.pid === pid, alone: true });
/** The Chromium the server launched, with its renderer, GPU and utility processes. */
export const chromiumOf = (pid: number): Part => ({ pick: (p) => p.ppid === pid && /chrom/i.test(p.comm) });
/** Every process inside a desktop session (own PID namespace, or marked by its environment). */
export const desktopProcesses: Part = { pick: (p) => p.nested || p.env.includes("CABIN_DESKTOP=") };

/** % of one core each part used over `seconds` (plus the server's reaped children as `helpers`). */
export async function cpuOver(seconds: number, parts: Record<string, Part>, serverPid: number) {
  const start = {
    at: performance.now(),
    reaped: reapedTicks(serverPid),
    ticks: Object.fromEntries(Object.entries(parts).map(([k, p]) => [k, ticksOf(p)])),
  };
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const s = (performance.now() - start.at) / 1000;
  const pctOf = (t: number) => (t / TICKS / s) * 100;
  const cpu = Object.fromEntries(Object.entries(parts).map(([k, p]) => [k, pctOf(ticksOf(p) - start.ticks[k])]));
  return { seconds: s, cpu, helpers: pctOf(reapedTicks(serverPid) - start.reaped) };
}

export interface Frame {
  at: number;
  bytes: number;
  data: Buffer;
}
export interface View {
  ws: WebSocket;
  frames: Frame[];
}

export async function openView(serverUrl: string, key: string, id: string, fps: number): Promise<View> {
  const ws = new WebSocket(`${serverUrl.replace(/^http/, "ws")}/computers/${id}/ws?fps=${fps}&quality=60`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const view: View = { ws, frames: [] };
  ws.on("message", (data, isBinary) => {
    if (isBinary) view.frames.push({ at: performance.now(), bytes: (data as Buffer).length, data: data as Buffer });
  });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  return view;
}

export async function closeView(view: View) {
  if (view.ws.readyState === WebSocket.CLOSED) return;
  const closed = new Promise((r) => view.ws.once("close", r));
  view.ws.close();
  await closed;
}

/** The first frame after index `after`, or null after `ms`. */
async function nextFrame(view: View, after: number, ms: number): Promise<Frame | null> {
  const until = performance.now() + ms;
  while (view.frames.length <= after && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
  return view.frames[after] ?? null;
}

/**
 * The newest frame once frames after `after` have stopped coming for 300 ms (the page has settled), or after 10 s of
 * frames.
 */
export async function settledFrame(view: View, after: number): Promise<Frame | null> {
  await nextFrame(view, after, 3000);
  let count = -1;
  // Bounded: a capture that never goes quiet on a still page is a finding to print, not a reason to hang.
  for (const until = performance.now() + 10_000; count !== view.frames.length && performance.now() < until; ) {
    count = view.frames.length;
    await new Promise((r) => setTimeout(r, 300));
  }
  return view.frames[view.frames.length - 1] ?? null;
}

/**
 * `presses` key presses; for each, ms from sending to the first frame that `expect()` (made just before the press)
 * accepts.
 */
export async function keyLatencies(
  view: View,
  presses: number,
  press: () => void,
  expect: () => (f: Frame) => boolean,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < presses; i++) {
    await settledFrame(view, view.frames.length - 1);
    const seen = view.frames.length;
    const shows = expect();
    const sent = performance.now();
    press();
    let found: number | null = null;
    while (found === null && performance.now() < sent + 3000) {
      const hit = view.frames.slice(seen).find(shows);
      if (hit) found = hit.at - sent;
      else await new Promise((r) => setTimeout(r, 2));
    }
    if (found !== null) latencies.push(found);
  }
  return latencies;
}

export function pressKey(view: View, key = "a") {
  view.ws.send(JSON.stringify({ type: "key", action: "down", key }));
  view.ws.send(JSON.stringify({ type: "key", action: "up", key }));
}

export function click(view: View, x: number, y: number) {
  view.ws.send(JSON.stringify({ type: "pointer", action: "down", x, y }));
  view.ws.send(JSON.stringify({ type: "pointer", action: "up", x, y }));
}

export const latencySummary = (l: number[], of: number) =>
  l.length
    ? `p50 ${pct(l, 50).toFixed(0)} ms, p95 ${pct(l, 95).toFixed(0)} ms (n=${l.length}/${of})`
    : "no frame showed the change";
