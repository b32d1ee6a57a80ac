// npm run bench:live — live view figures on this machine, through the /ws
// endpoint of a real server (production build): frames per second on an
// animated page, key press → first frame showing it (p50/p95), and the CPU
// the watched session costs (Chromium's process tree; for desktops every
// process inside the desktop plus the host-side grab helpers), with the
// Cabin server's own CPU beside it. Desktop rows need the base image.
//   BENCH_LIVE_SECONDS=5  BENCH_LIVE_KEYS=20  BENCH_LIVE_DESKTOP=1
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import WebSocket from "ws";
import { createOrgKey, startServer } from "../tests/api/harness";
import { desktopImagesDir } from "../tests/api/desktop-fixtures";
import { startLiveSite } from "../tests/api/live-fixtures";
import { pct, timedClient } from "./timing";

const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 5);
const KEYS = Number(process.env.BENCH_LIVE_KEYS ?? 20);
const DESKTOP = process.env.BENCH_LIVE_DESKTOP !== "0";
const TICKS = 100; // USER_HZ

const server = await startServer({ env: { LOG_LEVEL: "warn", DESKTOP_IMAGES_DIR: desktopImagesDir() } });
const key = await createOrgKey(server, "Bench");
const site = await startLiveSite();
const req = timedClient(server.url, key);
const rows: [string, string, string][] = [];

interface Proc { pid: number; ppid: number; ticks: number; reaped: number; nested: boolean; env: string }
function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      const nested = (/^NSpid:\s+(.*)$/m.exec(status)?.[1].trim().split(/\s+/).length ?? 1) > 1;
      let env = "";
      try { env = readFileSync(`/proc/${name}/environ`, "latin1"); } catch { /* not ours */ }
      out.push({ pid: Number(name), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]), nested, env });
    } catch {
      // exited
    }
  }
  return out;
}

/** CPU ticks of the processes `pick` selects, with their descendants. */
function ticksOf(pick: (p: Proc, all: Proc[]) => boolean): number {
  const all = processes();
  const chosen = new Set(all.filter((p) => pick(p, all)).map((p) => p.pid));
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) if (!chosen.has(p.pid) && chosen.has(p.ppid)) { chosen.add(p.pid); grew = true; }
  }
  return all.filter((p) => chosen.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0);
}

/** CPU ticks of the server's children that have exited (short-lived helpers: the desktop's grab spawns). */
function reapedTicks(): number {
  return processes().find((p) => p.pid === serverPid)?.reaped ?? 0;
}

const serverPid = server.process.pid!;
const chromium = (p: Proc) => p.ppid === serverPid && /chrom/.test(readFileSync(`/proc/${p.pid}/comm`, "utf8"));
const desktop = (p: Proc) => p.nested || p.env.includes(`CABIN_DESKTOP=`);
const serverOnly = (p: Proc) => p.pid === serverPid;

interface View { ws: WebSocket; frames: { at: number; bytes: number }[] }
async function openView(id: string, fps: number): Promise<View> {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/computers/${id}/ws?fps=${fps}&quality=60`, { headers: { authorization: `Bearer ${key}` } });
  const view: View = { ws, frames: [] };
  ws.on("message", (data, isBinary) => { if (isBinary) view.frames.push({ at: performance.now(), bytes: (data as Buffer).length }); });
  await new Promise((resolve, reject) => { ws.once("open", resolve); ws.once("error", reject); });
  return view;
}

/** fps over SECONDS and CPU % (of one core) of the watched parts and of the server. */
async function watch(view: View, part: (p: Proc, all: Proc[]) => boolean) {
  await new Promise((r) => setTimeout(r, 1000)); // let the capture settle
  const start = { at: performance.now(), frames: view.frames.length, part: ticksOf(part), server: ticksOf(serverOnly), reaped: reapedTicks() };
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const seconds = (performance.now() - start.at) / 1000;
  const cpu = (t: number) => ((t / TICKS / seconds) * 100).toFixed(0);
  return {
    fps: (view.frames.length - start.frames) / seconds,
    partCpu: cpu(ticksOf(part) - start.part),
    serverCpu: cpu(ticksOf(serverOnly) - start.server),
    helperCpu: cpu(reapedTicks() - start.reaped),
  };
}

try {
  rows.push(["load average at start", os.loadavg().map((l) => l.toFixed(2)).join(" "), ""]);
  const browser = (await req("POST", "/computers", { kind: "browser" })).body;
  await req("POST", `/computers/${browser.id}/navigate`, { url: `${site.url}/animated` });
  const idle = await (async () => {
    const before = ticksOf(chromium);
    await new Promise((r) => setTimeout(r, 2000));
    return (((ticksOf(chromium) - before) / TICKS / 2) * 100).toFixed(0);
  })();
  let view = await openView(browser.id, 30);
  let w = await watch(view, chromium);
  rows.push(["browser fps, animated page (fps=30, q60, 1280×720)", w.fps.toFixed(1), "≥ 25"]);
  rows.push(["browser CPU while watched", `Chromium ${w.partCpu} % (${idle} % unwatched), server ${w.serverCpu} %`, ""]);
  view.ws.close();
  view = await openView(browser.id, 15);
  w = await watch(view, chromium);
  rows.push(["browser fps, animated page (fps=15 default)", w.fps.toFixed(1), ""]);
  rows.push(["browser CPU while watched at 15 fps", `Chromium ${w.partCpu} %, server ${w.serverCpu} %`, ""]);
  view.ws.close();

  // Key → first frame showing it: /flip alternates a black and a striped page per key press.
  await req("POST", `/computers/${browser.id}/navigate`, { url: `${site.url}/flip` });
  view = await openView(browser.id, 30);
  await new Promise((r) => setTimeout(r, 500));
  // Calibrate: the size of a black frame, then of a striped one; the midpoint tells them apart.
  const press = () => {
    view.ws.send(JSON.stringify({ type: "key", action: "down", key: "a" }));
    view.ws.send(JSON.stringify({ type: "key", action: "up", key: "a" }));
  };
  // The newest frame once there is one past `after` (at most 3 s: a still page sends none).
  const nextFrame = async (after: number) => {
    const until = performance.now() + 3000;
    while (view.frames.length <= after && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
    return view.frames[view.frames.length - 1]?.bytes ?? 0;
  };
  const black = await nextFrame(0);
  let seenBefore = view.frames.length;
  press();
  await new Promise((r) => setTimeout(r, 500));
  const stripes = await nextFrame(seenBefore);
  press();
  await new Promise((r) => setTimeout(r, 500));
  const threshold = (black + stripes) / 2;
  rows.push(["flip page frame sizes (black / striped)", `${black} / ${stripes} bytes`, ""]);
  const latencies: number[] = [];
  let striped = false;
  for (let i = 0; i < KEYS; i++) {
    seenBefore = view.frames.length;
    const seen = seenBefore;
    const sent = performance.now();
    press();
    striped = !striped;
    const deadline = sent + 3000;
    let found: number | null = null;
    while (found === null && performance.now() < deadline) {
      const hit = view.frames.slice(seen).find((f) => (f.bytes > threshold) === striped);
      if (hit) found = hit.at - sent;
      else await new Promise((r) => setTimeout(r, 2));
    }
    if (found !== null) latencies.push(found);
    await new Promise((r) => setTimeout(r, 100));
  }
  rows.push(["browser key → first frame showing it", latencies.length ? `p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms (n=${latencies.length}/${KEYS})` : "no frame showed the change", "p50 ≤ 50 ms"]);
  view.ws.close();
  await req("DELETE", `/computers/${browser.id}`);

  if (DESKTOP) {
    try {
      const desk = (await req("POST", "/computers", { kind: "desktop" })).body;
      const dview = await openView(desk.id, 15);
      const dw = await watch(dview, desktop);
      rows.push(["desktop fps (fps=15, q60, 1280×720, steady grab)", dw.fps.toFixed(1), "≥ 15"]);
      rows.push(["desktop CPU while watched", `desktop processes ${dw.partCpu} %, grab helpers ${dw.helperCpu} %, server ${dw.serverCpu} %`, ""]);
      dview.ws.close();
      await req("DELETE", `/computers/${desk.id}`);
    } catch (err) {
      rows.push(["desktop", `skipped: ${String(err).slice(0, 120)}`, ""]);
    }
  }
  rows.push(["load average at end", os.loadavg().map((l) => l.toFixed(2)).join(" "), ""]);
} finally {
  await site.close();
  await server.stop();
  await server.destroy();
}

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`\nlive view (${new Date().toISOString()}, ${os.cpus().length} cores)\n`);
for (const [name, value, target] of rows) console.log(`${name.padEnd(width)}  ${value}${target ? `   (target ${target})` : ""}`);
