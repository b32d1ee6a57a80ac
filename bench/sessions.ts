// npm run bench:sessions — browser session figures on this machine, through
// HTTP against a real server (production build, own data dir), printed as a table:
// create→ready warm, the pool under bursts (back-to-back creates, ten concurrent
// creates, delete) against its floor measured in the same run (raw Playwright
// newContext+newPage on a running Chromium: bench/pool-floor.ts), tab
// create/switch/close, 200 idle sessions (errors, memory per session), and the memory
// an organization costs (each has a Chromium of its own), and how late the reaper ends an idle session.
// Needs `npm run build` first.
//   BENCH_IDLE_SESSIONS=200  BENCH_WARM_CREATES=30  BENCH_TAB_OPS=30  BENCH_ORGS=5  BENCH_REAPS=5
import { createHash } from "node:crypto";
import path from "node:path";
import { createOrgKey, startServer } from "../tests/api/harness";
import { measurePoolFloor, summary } from "./pool-floor";
import { treePssMiB } from "./process-memory";
import { pct, printTable, timedClient } from "./timing";

const IDLE = Number(process.env.BENCH_IDLE_SESSIONS ?? 200);
const WARM = Number(process.env.BENCH_WARM_CREATES ?? 30);
const TAB_OPS = Number(process.env.BENCH_TAB_OPS ?? 30);
const ORGS = Number(process.env.BENCH_ORGS ?? 5);
const REAPS = Number(process.env.BENCH_REAPS ?? 5);

const server = await startServer({ env: { LOG_LEVEL: "warn" } });
const key = await createOrgKey(server, "Bench");
const rows: [string, string, string][] = [];
const [load1] = (await import("node:os")).loadavg();

const req = timedClient(server.url, key);
const fmt = (v: number) => `${v.toFixed(1)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function poolStats() {
  const health = (await (await fetch(`${server.url}/api/health`)).json()) as any;
  return health.checks.sessions.browser as {
    standby_contexts: number;
    standby_target: number;
    standby_floor: number;
    session_contexts: number;
    browsers: number;
  };
}

/** Until standby holds its target (the refill after a burst), at most 30 s; returns the standby size. */
async function standbySettled(): Promise<number> {
  const until = Date.now() + 30_000;
  for (;;) {
    const p = await poolStats();
    if (p.standby_contexts >= p.standby_target || Date.now() > until) return p.standby_contexts;
    await sleep(250);
  }
}

/** Ten creates started together; the time until the last one is ready. */
async function tenConcurrent(ids: string[]): Promise<number> {
  const started = performance.now();
  const made = await Promise.all(Array.from({ length: 10 }, () => req("POST", "/computers", {})));
  const ms = performance.now() - started;
  if (made.some((r) => r.body.status !== "ready")) throw new Error("a concurrent create was not ready");
  ids.push(...made.map((r) => r.body.id));
  return ms;
}

async function backToBack(ids: string[], n = 20): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await req("POST", "/computers", {});
    times.push(r.ms);
    ids.push(r.body.id);
  }
  return times;
}

async function deleteAll(ids: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const id of ids.splice(0)) times.push((await req("DELETE", `/computers/${id}`)).ms);
  return times;
}

function record(name: string, values: number[], target = "") {
  rows.push([name, `p50 ${fmt(pct(values, 50))}, p95 ${fmt(pct(values, 95))} (n=${values.length})`, target]);
}

/** PSS (MiB) of every process in the trees of this server's Chromiums. */
function chromiumPssMiB(): { pss: number; processes: number } {
  const hash = createHash("sha256")
    .update(`${path.resolve(server.dataDir)}\0local`)
    .digest("hex")
    .slice(0, 16);
  return treePssMiB((p) => p.cmdline.includes(`--cabin-owner=${hash}`));
}

try {
  await sleep(2000); // let the standby pool fill
  // 1. create→ready, warm: spaced so the standby pool refills between creates.
  const warm: number[] = [];
  const ids: string[] = [];
  for (let i = 0; i < WARM; i++) {
    const r = await req("POST", "/computers", {});
    warm.push(r.ms);
    ids.push(r.body.id);
    await sleep(700);
  }
  record("create→ready (warm, HTTP round trip)", warm, "≤ 50 ms p50");
  // The floor under the same conditions: authentication plus one read.
  const floor: number[] = [];
  for (let i = 0; i < WARM; i++) floor.push((await req("GET", `/computers/${ids[0]}`)).ms);
  record("GET /computers/{id} (auth + one read: the floor)", floor);
  for (const id of ids.splice(0)) await req("DELETE", `/computers/${id}`);

  // 2. the pool under bursts. Standby starts small (spaced creates ask for little);
  // a burst raises the demand estimate, so the second of each pair meets a sized standby.
  const floorFigures = await measurePoolFloor();
  rows.push(["floor: raw newContext+newPage (running Chromium)", summary(floorFigures.create), ""]);
  rows.push([
    "floor: raw ten concurrent newContext+newPage",
    `${floorFigures.tenConcurrentMs.toFixed(0)} ms until all ready`,
    "",
  ]);
  rows.push(["floor: raw context close", summary(floorFigures.close), ""]);
  let standbyBefore = await standbySettled();
  const coldTen = await tenConcurrent(ids);
  rows.push([
    `ten concurrent creates, first burst (standby ${standbyBefore} at start)`,
    `${coldTen.toFixed(0)} ms until all ready`,
    "reported",
  ]);
  const del: number[] = await deleteAll(ids);
  standbyBefore = await standbySettled();
  const sizedTen = await tenConcurrent(ids);
  rows.push([
    `ten concurrent creates, standby sized by demand (${standbyBefore} at start)`,
    `${sizedTen.toFixed(0)} ms until all ready`,
    "≤ 300 ms",
  ]);
  del.push(...(await deleteAll(ids)));
  standbyBefore = await standbySettled();
  const burst = await backToBack(ids);
  record(`create→ready back to back ×20 (standby ${standbyBefore} at start)`, burst, "p50 ≤ 20 ms, p95 ≤ 60 ms");
  del.push(...(await deleteAll(ids)));
  standbyBefore = await standbySettled();
  const burst2 = await backToBack(ids);
  record(`create→ready back to back ×20 again (standby ${standbyBefore} at start)`, burst2, "p50 ≤ 20 ms, p95 ≤ 60 ms");
  const rawP50 = pct(floorFigures.create, 50);
  rows.push([
    "back to back p50 / raw newContext+newPage p50 (both runs)",
    `${(pct(burst, 50) / rawP50).toFixed(2)}×, ${(pct(burst2, 50) / rawP50).toFixed(2)}×`,
    "≤ 0.5×",
  ]);
  rows.push([
    "ten concurrent (sized) / raw ten concurrent",
    `${(sizedTen / floorFigures.tenConcurrentMs).toFixed(2)}×`,
    "reported",
  ]);
  del.push(...(await deleteAll(ids)));
  record("delete (non-persistent, answered)", del, "≤ 10 ms p50");

  // 3. tabs in one session.
  const s = (await req("POST", "/computers", {})).body.id;
  const made: number[] = [];
  const switched: number[] = [];
  const closed: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < TAB_OPS; i++) {
    const r = await req("POST", `/computers/${s}/tabs`, {});
    made.push(r.ms);
    switched.push((await req("POST", `/computers/${s}/tabs/tab_main/switch`)).ms);
    list.push((await req("GET", `/computers/${s}/tabs`)).ms);
    closed.push((await req("DELETE", `/computers/${s}/tabs/${r.body.result.created_tab_id}`)).ms);
  }
  record("tab create (about:blank)", made);
  record("tab switch", switched, "≤ 30 ms p50");
  record("tab list (2 tabs)", list);
  record("tab close", closed, "≤ 30 ms p50");
  await req("DELETE", `/computers/${s}`);

  // 4. idle sessions.
  await sleep(3000);
  const base = chromiumPssMiB();
  let errors = 0;
  const idleCreate: number[] = [];
  const startedAt = performance.now();
  for (let i = 0; i < IDLE; i++) {
    try {
      const r = await req("POST", "/computers", { inactivity_timeout_seconds: 3600 });
      idleCreate.push(r.ms);
      ids.push(r.body.id);
    } catch (err) {
      errors++;
      if (errors <= 3) console.error(String(err));
    }
  }
  const total = (performance.now() - startedAt) / 1000;
  await sleep(5000);
  const loaded = chromiumPssMiB();
  const health = (await (await fetch(`${server.url}/api/health`)).json()) as any;
  const tabsOk = await Promise.all(
    ids.slice(0, 20).map((id) =>
      req("GET", `/computers/${id}/tabs`).then(
        () => true,
        () => false,
      ),
    ),
  );
  rows.push([
    `${IDLE} idle sessions`,
    `${ids.length} ready, ${errors} errors, ${total.toFixed(1)} s to create; ${tabsOk.filter(Boolean).length}/20 ` +
      `sampled answer`,
    "≥ 200 without errors",
  ]);
  record(`create→ready while filling to ${IDLE}`, idleCreate);
  rows.push([
    "Chromium PSS: empty pool → loaded",
    `${base.pss.toFixed(0)} MiB (${base.processes} procs) → ${loaded.pss.toFixed(0)} MiB (${loaded.processes} procs, ` +
      `${health.checks.sessions.browser.browsers} browsers)`,
    "",
  ]);
  rows.push([
    "memory per idle session (PSS)",
    `${((loaded.pss - base.pss) / Math.max(1, ids.length)).toFixed(1)} MiB`,
    "reported",
  ]);
  const del2: number[] = [];
  for (const id of ids.splice(0)) del2.push((await req("DELETE", `/computers/${id}`)).ms);
  record(`delete ${IDLE} sessions (one by one)`, del2);

  // 5. organizations: each runs in a Chromium of its own. Measured once every organization's
  // standby (the spare's, which it claimed) has trimmed back, a minute after its create.
  const settled = async () => {
    for (let until = Date.now() + 120_000; Date.now() < until; await sleep(1000)) {
      const p = await poolStats();
      if (
        p.session_contexts === ids.length &&
        p.standby_contexts === p.standby_floor &&
        p.standby_target === p.standby_floor
      )
        return;
    }
  };
  await settled();
  const orgBase = chromiumPssMiB();
  for (let i = 0; i < ORGS; i++) {
    const orgReq = timedClient(server.url, await createOrgKey(server, `Bench org ${i}`));
    ids.push((await orgReq("POST", "/computers", { inactivity_timeout_seconds: 3600 })).body.id);
  }
  await settled();
  const orgLoaded = chromiumPssMiB();
  const perOrg = (orgLoaded.pss - orgBase.pss) / ORGS;
  rows.push([
    `${ORGS} organizations with one idle session each`,
    `${perOrg.toFixed(1)} MiB per organization (PSS, ` +
      `${((orgLoaded.processes - orgBase.processes) / ORGS).toFixed(1)} processes): its Chromium and its session`,
    "reported",
  ]);
  for (const id of ids.splice(0)) await req("DELETE", `/computers/${id}`).catch(() => {});

  // 6. the reaper: how long after its idle deadline a session is ended (the API tests assert only "not before").
  const lateBy: number[] = [];
  for (let i = 0; i < REAPS; i++) {
    const made = (await req("POST", "/computers", { inactivity_timeout_seconds: 2 })).body;
    for (let until = Date.now() + 30_000; Date.now() < until; await sleep(100)) {
      const status = (await req("GET", `/computers/${made.id}/status`)).body;
      if (status.status !== "terminated") continue;
      lateBy.push(Date.parse(status.terminated_at) - Date.parse(made.idle_expires_at));
      break;
    }
  }
  record(`idle kill after its deadline (${REAPS} sessions, 2 s idle)`, lateBy, "within 2 s");
} finally {
  await server.destroy();
}

rows.push(["machine load (1-min average at start)", load1.toFixed(2), ""]);
printTable(rows);
process.exit(0);
