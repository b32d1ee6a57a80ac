// npm run bench:desktop — desktop session figures on this machine, through HTTP
// against a real server (production build, own data dir, the built base image):
// create→ready from the warm standby (DESKTOP_STANDBY=1) against a cold start measured in
// the same run on a server with DESKTOP_STANDBY=0 (the ratio is the figure), restore from a
// snapshot, snapshot size and time, screenshot, exec, and memory (PSS) per idle desktop.
// Needs `npm run build` and `npm run desktop:image`.
//   BENCH_DESKTOP_CREATES=15  BENCH_DESKTOP_RESTORES=10  BENCH_DESKTOP_IDLE=5
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createOrgKey, startServer } from "../tests/api/harness";
import { desktopImagesDir } from "../tests/api/desktop-fixtures";
import { markerPrefix, MARKER_VAR } from "@/lib/computers/desktop/marker";
import { pct, timedClient } from "./timing";

const CREATES = Number(process.env.BENCH_DESKTOP_CREATES ?? 15);
const RESTORES = Number(process.env.BENCH_DESKTOP_RESTORES ?? 10);
const IDLE = Number(process.env.BENCH_DESKTOP_IDLE ?? 5);

const rows: [string, string, string][] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `count` creates (each deleted after), each once the server's standby holds a desktop when `warm`. */
async function createTimes(standby: number, count: number): Promise<number[]> {
  const env = { LOG_LEVEL: "warn", DESKTOP_IMAGES_DIR: desktopImagesDir(), DESKTOP_STANDBY: String(standby) };
  const one = await startServer({ env });
  try {
    const client = timedClient(one.url, await createOrgKey(one, "Bench"));
    const standbyReady = async () => {
      for (const until = Date.now() + 60_000; Date.now() < until; await sleep(100)) {
        const health = (await (await fetch(`${one.url}/api/health`)).json()) as any;
        if (health.checks.sessions.desktop.standby_desktops >= 1) return;
      }
      throw new Error("no standby desktop after 60 s");
    };
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      if (standby) await standbyReady();
      const { ms, body } = await client("POST", "/computers", { kind: "desktop" });
      if (body.status !== "ready") throw new Error(`create failed: ${JSON.stringify(body)}`);
      times.push(ms);
      await client("DELETE", `/computers/${body.id}`);
    }
    return times;
  } finally {
    await one.destroy();
  }
}

const cold = await createTimes(0, CREATES);
const warm = await createTimes(1, CREATES);

const server = await startServer({ env: { LOG_LEVEL: "warn", DESKTOP_IMAGES_DIR: desktopImagesDir() } });
const key = await createOrgKey(server, "Bench");
const req = timedClient(server.url, key);
const record = (name: string, values: number[], target = "") =>
  rows.push([
    name,
    `p50 ${pct(values, 50).toFixed(0)} ms, p95 ${pct(values, 95).toFixed(0)} ms (n=${values.length})`,
    target,
  ]);

/** PSS (MiB) of every process in a nested PID namespace (the desktops) plus Cabin's marked host-side helpers. */
function desktopPssMiB(): { pss: number; processes: number; networkPss: number } {
  const marker = `${MARKER_VAR}=${markerPrefix(path.join(server.dataDir, "desktops"))}`;
  let kib = 0;
  let networkKib = 0;
  let processes = 0;
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const nested = (/^NSpid:\s+(.*)$/m.exec(status)?.[1].trim().split(/\s+/).length ?? 1) > 1;
      if (!nested && !readFileSync(`/proc/${pid}/environ`, "latin1").includes(marker)) continue;
      const pss = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0);
      kib += pss;
      if (/^Name:\s+slirp4netns$/m.test(status)) networkKib += pss;
      processes++;
    } catch {
      // exited, or a kernel thread
    }
  }
  return { pss: kib / 1024, processes, networkPss: networkKib / 1024 };
}

function newestManifest() {
  const dir = desktopImagesDir();
  const manifests = readdirSync(dir)
    .filter((d) => !d.startsWith("."))
    .flatMap((d) => {
      try {
        return [JSON.parse(readFileSync(path.join(dir, d, "manifest.json"), "utf8"))];
      } catch {
        return [];
      }
    });
  return manifests.sort((a, b) => String(a.built_at).localeCompare(String(b.built_at))).at(-1);
}

try {
  const manifest = newestManifest();
  rows.push([
    "base image",
    `${manifest.version}: ${(manifest.size_bytes / 1048576).toFixed(0)} MiB, built in ${manifest.build_seconds} s`,
    "",
  ]);

  record("create → ready, cold (DESKTOP_STANDBY=0: the floor)", cold);
  record("create → ready, warm (DESKTOP_STANDBY=1, standby ready)", warm);
  rows.push(["warm / cold create → ready, p50", `${(pct(warm, 50) / pct(cold, 50)).toFixed(2)}×`, "target ≤ 0.3×"]);

  const source = (await req("POST", "/computers", { kind: "desktop", persistent: true })).body;
  await req("POST", `/computers/${source.id}/exec/sync`, {
    command: "mkdir -p ~/work && seq 1 200000 > ~/work/numbers.txt && cp -r /etc/X11 ~/work/",
  });
  const del = await req("DELETE", `/computers/${source.id}`);
  rows.push(["delete of a persistent desktop (close apps, snapshot, save)", `${del.ms.toFixed(0)} ms`, ""]);
  const restores: number[] = [];
  for (let i = 0; i < RESTORES; i++) {
    const { ms, body } = await req("POST", "/computers", { kind: "desktop", environment_id: source.id });
    restores.push(ms);
    await req("DELETE", `/computers/${body.id}`);
  }
  record("restore from snapshot → ready", restores, "target p50 ≤ 1500 ms");

  const d = (await req("POST", "/computers", { kind: "desktop" })).body;
  const shots: number[] = [];
  const execs: number[] = [];
  const clicks: number[] = [];
  for (let i = 0; i < 20; i++) {
    shots.push((await req("POST", `/computers/${d.id}/screenshot`, { base64: true })).ms);
    execs.push((await req("POST", `/computers/${d.id}/exec/sync`, { command: "true" })).ms);
    clicks.push((await req("POST", `/computers/${d.id}/click`, { x: 600, y: 400 })).ms);
  }
  record("screenshot (PNG, base64)", shots);
  record("exec/sync `true`", execs);
  record("click", clicks);
  await req("DELETE", `/computers/${d.id}`);

  const before = desktopPssMiB();
  const idle = [];
  for (let i = 0; i < IDLE; i++) idle.push((await req("POST", "/computers", { kind: "desktop" })).body.id);
  await new Promise((r) => setTimeout(r, 2000));
  const after = desktopPssMiB();
  rows.push([
    `memory per idle desktop (PSS, ${IDLE} desktops)`,
    `${((after.pss - before.pss) / IDLE).toFixed(1)} MiB, ` +
      `${((after.processes - before.processes) / IDLE).toFixed(1)} processes`,
    "",
  ]);
  rows.push([
    "  of which the desktop's network (slirp4netns)",
    `${((after.networkPss - before.networkPss) / IDLE).toFixed(1)} MiB`,
    "",
  ]);
  for (const id of idle) await req("DELETE", `/computers/${id}`);
} finally {
  await server.destroy();
}

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`\nDesktop sessions (${new Date().toISOString()})`);
for (const [name, value, target] of rows)
  console.log(`${name.padEnd(width)}  ${value}${target ? `   [${target}]` : ""}`);
