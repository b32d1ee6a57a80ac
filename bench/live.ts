// npm run bench:live — what watching a session costs on this machine, through
// the /ws endpoint of a real server (production build). Browser, per page
// (still, a moving box, a full-screen animation) and per asked fps (5, 15,
// 30): frames delivered per second, Chromium's CPU (its process tree) unwatched
// and watched, the Cabin server's own CPU (its process alone; Chromium apart);
// and key press → first frame showing it on a still page, per fps; and the floor
// (bench/live-floor.ts: raw Playwright, no Cabin) the targets are read against. Desktop: the
// same for a still screen and an animated terminal (every process inside the
// desktop, spawned helpers apart); recording a replay against watching at 10 fps, and a still
// page recorded (bench/live-recording.ts). Figures, not assertions (docs/live-view-cost.md).
//   BENCH_LIVE_SECONDS=4  BENCH_LIVE_KEYS=16  BENCH_LIVE_DESKTOP=1
//   BENCH_BASELINE=<dir>: another checkout of Cabin, installed and built (e.g. a
//   `git worktree add` of main run through `node scripts/test.mjs --only drift`):
//   its server, started by that checkout's own tests/api/harness.ts, gets the same
//   browser rows in the same run, and the summary sets both builds side by side.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createOrgKey, startServer, type TestServer } from "../tests/api/harness";
import { desktopImagesDir } from "../tests/api/desktop-fixtures";
import { startLiveSite } from "../tests/api/live-fixtures";
import {
  chromiumOf,
  click,
  closeView,
  cpuOver,
  keyLatencies,
  latencySummary,
  openView,
  pressKey,
  serverAlone,
  settledFrame,
  type View,
} from "./live-measure";
import { pct, timedClient } from "./timing";
import { desktopLiveRows } from "./live-desktop";
import { type Floor, floorRows } from "./live-floor";
import { recordingRows } from "./live-recording";

const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 4);
const KEYS = Number(process.env.BENCH_LIVE_KEYS ?? 16);
const DESKTOP = process.env.BENCH_LIVE_DESKTOP !== "0";
const BASELINE_DIR = process.env.BENCH_BASELINE;
const FPS = [5, 15, 30];
const PAGES = [
  ["still", "/still"],
  ["moving box", "/animated"],
  ["full-screen animation", "/fullscreen"],
] as const;
const serverEnv = { LOG_LEVEL: "warn", DESKTOP_IMAGES_DIR: desktopImagesDir() };

export interface Build {
  name: string;
  server: TestServer;
  key: string;
}
interface Watched {
  page: string;
  fps: number;
  delivered: number;
  unwatched: number;
  watched: number;
  server: number;
}
interface BrowserFigures {
  watched: Watched[];
  keyP50: Map<number, number>;
}

const rows: [string, string, string][] = [];
const site = await startLiveSite();
const f0 = (n: number) => n.toFixed(0);
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Frames per second delivered to `view` and CPU of Chromium and the server over SECONDS. */
async function watch(view: View, pid: number) {
  await settle(1000); // let the capture settle
  const before = view.frames.length;
  const m = await cpuOver(SECONDS, { chromium: chromiumOf(pid), server: serverAlone(pid) }, pid);
  return { delivered: (view.frames.length - before) / m.seconds, chromium: m.cpu.chromium, server: m.cpu.server };
}

/** Key → first frame on /flip (a white page that turns to full-screen noise and back per key press), at `fps`. */
async function flipLatencies(build: Build, id: string, fps: number): Promise<number[] | string> {
  const req = timedClient(build.server.url, build.key);
  await req("POST", `/computers/${id}/navigate`, { url: `${site.url}/flip` });
  const view = await openView(build.server.url, build.key, id, fps);
  try {
    // The page's title counts the key presses that reached it (GET /tabs), so the figure is of real flips.
    const title = async () =>
      ((await req("GET", `/computers/${id}/tabs`)).body.result.tabs as { title: string }[])[0]?.title ?? "";
    const untilTitle = async (want: string) => {
      for (const until = performance.now() + 5000; performance.now() < until; await settle(50))
        if ((await title()) === want) return true;
      return false;
    };
    click(view, 640, 360); // keys go to the focused page, as for a viewer
    const white = (await settledFrame(view, 0))?.bytes ?? 0;
    const seen = view.frames.length;
    pressKey(view);
    if (!(await untilTitle("flip 1 noise"))) return `invalid: the key press did not flip the page ("${await title()}")`;
    const noisy = (await settledFrame(view, seen))?.bytes ?? 0;
    pressKey(view);
    if (!(await untilTitle("flip 2 white")))
      return `invalid: the second key press did not flip the page ("${await title()}")`;
    // The page did flip (title) yet no frame showed the noise: the capture dropped the one repaint.
    if (noisy < white * 4)
      return `invalid: the page flipped but no frame showed it (white ${white} B, noise ${noisy} B)`;
    const threshold = Math.sqrt(white * noisy);
    let on = false;
    return await keyLatencies(
      view,
      KEYS,
      () => pressKey(view),
      () => {
        on = !on;
        const want = on;
        return (f) => f.bytes > threshold === want;
      },
    );
  } finally {
    await closeView(view);
  }
}

async function browserRows(build: Build): Promise<BrowserFigures> {
  const req = timedClient(build.server.url, build.key);
  const pid = build.server.process.pid!;
  const figures: BrowserFigures = { watched: [], keyP50: new Map() };
  // Watching is not API activity: without auto_kill off the session idles out between the measured phases.
  const id = (await req("POST", "/computers", { kind: "browser", auto_kill: false })).body.id as string;
  try {
    for (const [page, url] of PAGES) {
      await req("POST", `/computers/${id}/navigate`, { url: `${site.url}${url}` });
      await settle(1000);
      const unwatched = (await cpuOver(SECONDS, { chromium: chromiumOf(pid) }, pid)).cpu.chromium;
      for (const fps of FPS) {
        const view = await openView(build.server.url, build.key, id, fps);
        const w = await watch(view, pid);
        await closeView(view);
        figures.watched.push({ page, fps, delivered: w.delivered, unwatched, watched: w.chromium, server: w.server });
        rows.push([
          `${build.name}: browser, ${page}, fps=${fps}`,
          `${w.delivered.toFixed(1)} fps; Chromium ${f0(w.chromium)} % watched, ${f0(unwatched)} % unwatched; server ${f0(w.server)} %`,
          "",
        ]);
      }
    }
    for (const fps of FPS) {
      const l = await flipLatencies(build, id, fps);
      if (typeof l !== "string" && l.length) figures.keyP50.set(fps, pct(l, 50));
      rows.push([
        `${build.name}: browser key → first frame showing it, fps=${fps}`,
        typeof l === "string" ? l : latencySummary(l, KEYS),
        "",
      ]);
    }
  } finally {
    await req("DELETE", `/computers/${id}`);
  }
  return figures;
}

/** The BENCH_BASELINE checkout's server, started by that checkout's own test harness. */
async function startBaseline(dir: string): Promise<Build> {
  const harness = (await import(
    pathToFileURL(path.resolve(dir, "tests/api/harness.ts")).href
  )) as typeof import("../tests/api/harness");
  const server = await harness.startServer({
    dataDir: mkdtempSync(path.join(os.tmpdir(), "cabin-bench-live-baseline-")),
    env: serverEnv,
  });
  const commit = execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"]).toString().trim();
  return { name: `baseline ${commit}`, server, key: await harness.createOrgKey(server, "Bench") };
}

/** What the floor allows for the targets: the least 15 full-size frames a second can add, the most fps Chromium makes. */
function floorSummary(floor: Floor) {
  rows.push([
    "floor: 15 full-size frames a second add at least",
    `${((15 * floor.perFrame) / Math.max(floor.unwatched, 1)).toFixed(2)}× the moving box's own Chromium CPU`,
    "",
  ]);
  rows.push(["floor: delivered/asked at fps=30 at most", `${(floor.maxFps / 30).toFixed(2)}×`, ""]);
}

/** The targets, as ratios within this run (watching's added cost against the page's own, delivered/asked, key p50 against the baseline). */
function summary(name: string, figures: BrowserFigures, baseline?: BrowserFigures) {
  const box = figures.watched.find((w) => w.page === "moving box" && w.fps === 15);
  if (box) {
    const added = (box.watched - box.unwatched) / Math.max(box.unwatched, 1);
    rows.push([
      `${name}: watching at 15 fps adds, moving box`,
      `${added.toFixed(2)}× the page's own Chromium CPU (${f0(box.unwatched)} → ${f0(box.watched)} %)`,
      "≤ 0.5×",
    ]);
  }
  const animated = figures.watched.filter((w) => w.page !== "still");
  const worst = animated.reduce((a, b) => (b.delivered / b.fps < a.delivered / a.fps ? b : a), animated[0]);
  if (worst)
    rows.push([
      `${name}: lowest delivered/asked fps (animated pages)`,
      `${(worst.delivered / worst.fps).toFixed(2)}× (${worst.page}, fps=${worst.fps})`,
      "≥ 0.9×",
    ]);
  if (!baseline) return;
  for (const fps of FPS) {
    const ours = figures.keyP50.get(fps);
    const theirs = baseline.keyP50.get(fps);
    if (ours !== undefined && theirs !== undefined) {
      rows.push([
        `${name}: key → frame p50 against the baseline, fps=${fps}`,
        `${(ours / theirs).toFixed(2)}× (${f0(ours)} ms vs ${f0(theirs)} ms)`,
        "≤ 1×",
      ]);
    }
  }
}

const builds: Build[] = [];
try {
  rows.push([
    "load average at start",
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
    "",
  ]);
  console.log("measuring the floor (raw Playwright)…");
  const floor = await floorRows(`${site.url}/animated`, SECONDS, rows);
  // One server at a time, so neither's Chromium runs while the other is measured.
  let baselineFigures: BrowserFigures | undefined;
  let baselineName = "";
  if (BASELINE_DIR) {
    console.log(`starting the baseline's server (${BASELINE_DIR})…`);
    const baseline = await startBaseline(BASELINE_DIR);
    builds.push(baseline);
    baselineName = baseline.name;
    baselineFigures = await browserRows(baseline);
    await baseline.server.destroy();
    builds.pop();
  }
  console.log("starting this checkout's server…");
  const server = await startServer({ env: serverEnv });
  const current: Build = { name: "this build", server, key: await createOrgKey(server, "Bench") };
  builds.push(current);
  const figures = await browserRows(current);
  await recordingRows(current, site.url, SECONDS, rows);
  if (DESKTOP) {
    try {
      await desktopLiveRows(current, { seconds: SECONDS, keys: KEYS, fps: FPS }, rows);
    } catch (err) {
      rows.push(["desktop", `skipped: ${String(err).slice(0, 120)}`, ""]);
    }
  }
  floorSummary(floor);
  if (baselineFigures) summary(baselineName, baselineFigures);
  summary(current.name, figures, baselineFigures);
  rows.push([
    "load average at end",
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
    "",
  ]);
} finally {
  await site.close();
  for (const build of builds) await build.server.destroy();
}

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`\nlive view (${new Date().toISOString()}, ${os.cpus().length} cores)\n`);
for (const [name, value, target] of rows)
  console.log(`${name.padEnd(width)}  ${value}${target ? `   (target ${target})` : ""}`);
