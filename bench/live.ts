// npm run bench:live — live view figures on this machine, through the /ws
// endpoint of a real server (production build): frames per second on an
// animated page, key press → first frame showing it (p50/p95), and the CPU
// the watched session costs (Chromium's process tree; for desktops every
// process inside the desktop plus the host-side ffmpeg capture; exited helpers apart), with the
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

/** CPU ticks of the server's children that have exited (short-lived helpers such as xdotool). */
function reapedTicks(): number {
  return processes().find((p) => p.pid === serverPid)?.reaped ?? 0;
}

const serverPid = server.process.pid!;
const chromium = (p: Proc) => p.ppid === serverPid && /chrom/.test(readFileSync(`/proc/${p.pid}/comm`, "utf8"));
const desktop = (p: Proc) => p.nested || p.env.includes(`CABIN_DESKTOP=`);
const serverOnly = (p: Proc) => p.pid === serverPid;

interface View { ws: WebSocket; frames: { at: number; bytes: number; data: Buffer }[] }
async function openView(id: string, fps: number): Promise<View> {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/computers/${id}/ws?fps=${fps}&quality=60`, { headers: { authorization: `Bearer ${key}` } });
  const view: View = { ws, frames: [] };
  ws.on("message", (data, isBinary) => { if (isBinary) view.frames.push({ at: performance.now(), bytes: (data as Buffer).length, data: data as Buffer }); });
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

type Frame = View["frames"][number];

/** The first frame after index `after`, or null after `ms`. */
async function nextFrame(view: View, after: number, ms: number): Promise<Frame | null> {
  const until = performance.now() + ms;
  while (view.frames.length <= after && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
  return view.frames[after] ?? null;
}

/** The newest frame once frames after `after` have stopped coming for 300 ms (the page has settled). */
async function settledFrame(view: View, after: number): Promise<Frame | null> {
  await nextFrame(view, after, 3000);
  let count = -1;
  while (count !== view.frames.length) {
    count = view.frames.length;
    await new Promise((r) => setTimeout(r, 300));
  }
  return view.frames[view.frames.length - 1] ?? null;
}

/** KEYS presses; for each, ms from sending to the first frame that `expect()` (made just before the press) accepts. */
async function keyLatencies(view: View, press: () => void, expect: () => (f: Frame) => boolean): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < KEYS; i++) {
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

const latencySummary = (l: number[]) =>
  l.length ? `p50 ${pct(l, 50).toFixed(0)} ms, p95 ${pct(l, 95).toFixed(0)} ms (n=${l.length}/${KEYS})` : "no frame showed the change";

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

  // Key → first frame showing it: /flip swaps a white page and full-screen noise per key press.
  await req("POST", `/computers/${browser.id}/navigate`, { url: `${site.url}/flip` });
  view = await openView(browser.id, 30);
  const press = (v: View, key = "a") => {
    v.ws.send(JSON.stringify({ type: "key", action: "down", key }));
    v.ws.send(JSON.stringify({ type: "key", action: "up", key }));
  };
  // The page's title says how many key presses reached it (GET /tabs), so the figure is of real flips.
  const flipTitle = async () => ((await req("GET", `/computers/${browser.id}/tabs`)).body.result.tabs as { title: string }[])[0]?.title ?? "";
  const untilTitle = async (want: RegExp) => {
    for (const until = performance.now() + 5000; performance.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      const title = await flipTitle();
      if (want.test(title)) return title;
    }
    return await flipTitle();
  };
  // Click the page first, as a viewer would: keys go to the focused page.
  view.ws.send(JSON.stringify({ type: "pointer", action: "down", x: 640, y: 360 }));
  view.ws.send(JSON.stringify({ type: "pointer", action: "up", x: 640, y: 360 }));
  // Calibrate: a white frame, then a noisy one; they must differ in size by far more than noise between frames.
  const white = (await settledFrame(view, 0))?.bytes ?? 0;
  const seen = view.frames.length;
  press(view);
  const flipped = await untilTitle(/^flip 1 noise$/);
  const noisy = (await settledFrame(view, seen))?.bytes ?? 0;
  press(view);
  const back = await untilTitle(/^flip 2 white$/);
  await settledFrame(view, view.frames.length);
  rows.push(["flip page frame sizes (white / noise)", `${white} / ${noisy} bytes; page title after 1 and 2 presses: "${flipped}", "${back}"`, ""]);
  if (flipped !== "flip 1 noise" || back !== "flip 2 white") {
    rows.push(["browser key → first frame showing it", "invalid: the key presses did not flip the page (title above)", "p50 ≤ 50 ms"]);
  } else if (noisy < white * 4) {
    // The page did flip (title above) yet no frame showed the noise: the capture dropped the one repaint.
    rows.push(["browser key → first frame showing it", "invalid: the page flipped but no frame showed it (see the sizes above)", "p50 ≤ 50 ms"]);
  } else {
    const threshold = Math.sqrt(white * noisy);
    let on = false;
    const latencies = await keyLatencies(view, () => press(view), () => {
      on = !on;
      const want = on;
      return (f) => (f.bytes > threshold) === want;
    });
    const title = await flipTitle();
    rows.push(["browser key → first frame showing it", `${latencySummary(latencies)}; page title after: "${title}"`, "p50 ≤ 50 ms"]);
  }
  view.ws.close();
  await req("DELETE", `/computers/${browser.id}`);

  if (DESKTOP) {
    try {
      const desk = (await req("POST", "/computers", { kind: "desktop" })).body;
      // Still screen first: identical frames are sent once a second only.
      let dview = await openView(desk.id, 15);
      let dw = await watch(dview, desktop);
      rows.push(["desktop fps, still screen (fps=15)", dw.fps.toFixed(1), ""]);
      rows.push(["desktop CPU while watched, still", `desktop processes ${dw.partCpu} %, spawned helpers ${dw.helperCpu} %, server ${dw.serverCpu} %`, ""]);
      dview.ws.close();
      // Key → frame at fps=30, as for the browser: a letter typed into the terminal (clicked first, for focus);
      // the first frame that differs from the one before shows it.
      dview = await openView(desk.id, 30);
      dview.ws.send(JSON.stringify({ type: "pointer", action: "down", x: 400, y: 300 }));
      dview.ws.send(JSON.stringify({ type: "pointer", action: "up", x: 400, y: 300 }));
      const latencies = await keyLatencies(dview, () => press(dview, "x"), () => {
        const before = dview.frames[dview.frames.length - 1]?.data;
        return (f) => !before || !f.data.equals(before);
      });
      rows.push(["desktop key → first frame showing it (fps=30)", latencySummary(latencies), "p50 ≤ 50 ms"]);
      dview.ws.close();
      // Animated: a terminal printing the time every 20 ms (bash builtins only, no spawns).
      await req("POST", `/computers/${desk.id}/exec/sync`, {
        command: "setsid xterm -geometry 30x8-0-0 -e bash -c 'exec 3<> <(:); while :; do echo $EPOCHREALTIME; read -t 0.02 -u 3; done' >/dev/null 2>&1 &",
      });
      await new Promise((r) => setTimeout(r, 2000));
      dview = await openView(desk.id, 30);
      dw = await watch(dview, desktop);
      rows.push(["desktop fps, animated terminal (fps=30, q60, 1280×720, ffmpeg capture)", dw.fps.toFixed(1), "≥ 15"]);
      rows.push(["desktop CPU while watched, animated at 30 fps", `desktop processes ${dw.partCpu} %, spawned helpers ${dw.helperCpu} %, server ${dw.serverCpu} %`, ""]);
      dview.ws.close();
      dview = await openView(desk.id, 15);
      dw = await watch(dview, desktop);
      rows.push(["desktop fps, animated terminal (fps=15 default)", dw.fps.toFixed(1), ""]);
      rows.push(["desktop CPU while watched, animated at 15 fps", `desktop processes ${dw.partCpu} %, spawned helpers ${dw.helperCpu} %, server ${dw.serverCpu} %`, ""]);
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
