// @needs server quiet-machine chromium desktop
// Soak suite (docs/development.md "Hardening suites"): 500 browser and 50 desktop create/act/end cycles on a server
// of our own, a few ended by inactivity and by lifetime instead of DELETE, at bounded
// concurrency. Before and after: the server's processes, fds, mounts, temp profiles,
// desktop dirs and RSS; everything but RSS must return to its baseline exactly.
import { existsSync } from "node:fs";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "../api/harness";
import {
  api,
  createSession,
  execute,
  poolStats,
  startSite,
  waitFor,
  type Site,
  type Target,
} from "../api/computers-fixtures";
import { canRunDesktops, createDesktop, desktopHealth, desktopImagesDir, exec } from "../api/desktop-fixtures";
import { census, describeDescendants, printSummary, profilesOf, type Census } from "./host-census";

const BROWSER_CYCLES = Number(process.env.SOAK_BROWSER_CYCLES ?? 500);
const DESKTOP_CYCLES = Number(process.env.SOAK_DESKTOP_CYCLES ?? 50);
const BROWSER_CONCURRENCY = 4;
const DESKTOP_CONCURRENCY = 2;
// Every Nth cycle is left to end by itself: inactivity (N), lifetime (N + 1).
const SELF_ENDING_EVERY = 25;
// V8 keeps the heap it grew to (and the allocator its arenas) after a burst of work, so the
// server's RSS settles somewhat above its cold start without leaking: a leak of even 1 KiB per
// cycle over 550 cycles would still fit, but anything per-session (a page, a buffer, a stream)
// would not. Every other figure must be back to its baseline exactly.
const RSS_TOLERANCE_MIB = 96;

let site: Site;
let server: TestServer;
let target: Target;
beforeAll(async () => {
  site = await startSite();
  // A warm desktop (DESKTOP_STANDBY) in the census from the baseline on: one that leaked would show.
  server = await startServer({
    env: canRunDesktops ? { DESKTOP_IMAGES_DIR: desktopImagesDir(), DESKTOP_STANDBY: "1" } : {},
  });
  target = { base: server.url, key: await createOrgKey(server, "Soak Org") };
}, 300_000);
afterAll(async () => {
  await server?.destroy();
  await site?.close();
});

/** Runs `count` jobs, `concurrency` at a time. */
async function pool(count: number, concurrency: number, job: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

/** How the cycle ends: DELETE, or left to its inactivity timeout or its lifetime. */
// The timeouts leave room for the one action on a loaded machine, where a create and an action take seconds: CI saw a
// browser with 5 s of idle and a desktop with 5 s end before their first action, while desktops started beside them.
function ending(i: number, every: number, idleSeconds: number, lifetimeSeconds: number): Record<string, unknown> {
  if (i % every === 0) return { inactivity_timeout_seconds: idleSeconds };
  if (i % every === 1) return { timeout_seconds: lifetimeSeconds, auto_kill: false };
  return {};
}

/**
 * The pool at its floor: no session, no organization's browser (BROWSER_ORG_IDLE_SECONDS), the standby trimmed back,
 * and no context or page beyond the standby's own.
 */
const settledPool = async () => {
  const p = await poolStats(server.url);
  const desktop = canRunDesktops ? await desktopHealth({ base: server.url }) : null;
  return (
    (!desktop || desktop.standby_desktops === desktop.standby_desktop_target) &&
    p.ending_sessions === 0 &&
    p.live_sessions === 0 &&
    p.session_contexts === 0 &&
    p.organization_browsers === 0 &&
    p.standby_target === p.standby_floor &&
    p.standby_contexts === p.standby_floor &&
    p.contexts === p.standby_contexts &&
    p.pages === p.standby_contexts
  );
};

/**
 * One browser and one desktop cycle, so first-use costs are not counted as a leak. Chromium's browser-wide services
 * (`--type=utility`) may still start later, when Chromium decides (CI saw on_device_model appear mid-soak): the census
 * counts them apart (`Census.duplicateChromiumServices`).
 */
async function warmUp() {
  const s = await createSession({}, target);
  await execute(s.id, { type: "go_to_url", url: `${site.url}/page?n=warmup` }, target);
  await execute(s.id, { type: "screenshot" }, target);
  expect((await api("DELETE", `/computers/${s.id}`, undefined, target)).status).toBe(204);
  if (!canRunDesktops) return;
  const d = await createDesktop(target);
  expect((await exec(target, d.id, "echo warm")).stdout).toBe("warm\n");
  expect((await api("DELETE", `/computers/${d.id}`, undefined, target)).status).toBe(204);
}

describe("soak", () => {
  // Its own timeout: 550 cycles, the self-ending sessions' deadlines and the standby's minute-long trim took 584 s on a
  // quiet host and passed the project's 600 s on a loaded one.
  it(`${BROWSER_CYCLES} browser, ${canRunDesktops ? DESKTOP_CYCLES : 0} desktop cycles: the host at its baseline`, {
    timeout: 1_200_000,
  }, async () => {
    // The baseline is the steady state after one cycle of each kind, not the cold start.
    await warmUp();
    await waitFor("pool at its floor", settledPool, Boolean, 90_000, 500);
    const before = census(server);
    const processesBefore = describeDescendants(server.process.pid!);
    const profilesSeen = new Set(profilesOf(server.dataDir));
    const sampler = setInterval(() => profilesOf(server.dataDir).forEach((p) => profilesSeen.add(p)), 1_000);
    const selfEnding: { id: string; reason: string }[] = [];
    const started = Date.now();

    const browsers = pool(BROWSER_CYCLES, BROWSER_CONCURRENCY, async (i) => {
      const end = ending(i, SELF_ENDING_EVERY, 20, 40);
      const s = await createSession(end, target);
      await execute(s.id, { type: "go_to_url", url: `${site.url}/page?n=${i}` }, target);
      if (i % 10 === 5) await execute(s.id, { type: "screenshot" }, target);
      if (Object.keys(end).length)
        selfEnding.push({ id: s.id, reason: "inactivity_timeout_seconds" in end ? "inactivity" : "max_lifetime" });
      else expect((await api("DELETE", `/computers/${s.id}`, undefined, target)).status).toBe(204);
    });
    const desktops = canRunDesktops
      ? pool(DESKTOP_CYCLES, DESKTOP_CONCURRENCY, async (i) => {
          // Every 25th, as for browsers: self-ending desktops stay live for up to 45 s, and with every 10th a fast host
          // had 8 alive at once, the organization's desktop quota (ORG_MAX_DESKTOP_SESSIONS as the harness sets it).
          const end = ending(i, SELF_ENDING_EVERY, 20, 45);
          const d = await createDesktop(target, end);
          expect((await exec(target, d.id, `echo cycle-${i}`)).stdout).toBe(`cycle-${i}\n`);
          if (Object.keys(end).length)
            selfEnding.push({ id: d.id, reason: "inactivity_timeout_seconds" in end ? "inactivity" : "max_lifetime" });
          else expect((await api("DELETE", `/computers/${d.id}`, undefined, target)).status).toBe(204);
        })
      : Promise.resolve();
    await Promise.all([browsers, desktops]);
    const cyclesSeconds = (Date.now() - started) / 1000;

    for (const { id, reason } of selfEnding) {
      const row = await waitFor(
        `${id} ended by itself`,
        async () => (await api("GET", `/computers/${id}`, undefined, target)).body,
        (r) => r.status === "terminated",
        90_000,
        500,
      );
      expect(row.termination_reason).toBe(reason);
    }

    // Standby grew with the demand and trims back once it is a minute old; idle keep-alive sockets close.
    await waitFor("pool back at its floor", settledPool, Boolean, 150_000, 1_000);
    // Renderers: one more per browser is Chromium's own (Census.renderers); a per-session leak would be hundreds.
    const allowed = (k: keyof Census) => before[k] + (k === "renderers" ? before.chromiumMains : 0);
    const backToBaseline = (c: Census) =>
      (Object.keys(before) as (keyof Census)[]).every((k) => k === "rssMiB" || c[k] <= allowed(k));
    const after = await waitFor(
      "host back to its baseline",
      async () => census(server),
      backToBaseline,
      60_000,
      1_000,
    ).catch(() => census(server));
    clearInterval(sampler);
    const processesAfter = describeDescendants(server.process.pid!);
    const extra = processesAfter.filter(
      (p, i) =>
        processesAfter.indexOf(p) === i &&
        processesAfter.filter((q) => q === p).length > processesBefore.filter((q) => q === p).length,
    );
    if (extra.length) console.log(`server processes more numerous than before: ${extra.join("; ")}`);
    const profilesLeft = [...profilesSeen].filter(
      (dir) => existsSync(dir) && !profilesOf(server.dataDir).includes(dir),
    );

    printSummary(
      `soak suite: ${BROWSER_CYCLES} browser + ${canRunDesktops ? DESKTOP_CYCLES : 0} desktop cycles in ` +
        `${cyclesSeconds.toFixed(0)} s ` +
        `(load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")})`,
      ["measure", "before", "after", "delta"],
      [
        ...(Object.keys(before) as (keyof Census)[]).map((k) => [k, before[k], after[k], after[k] - before[k]]),
        ["orphaned temp profiles", 0, profilesLeft.length, profilesLeft.length],
      ],
    );
    for (const k of Object.keys(before) as (keyof Census)[]) {
      if (k !== "rssMiB") expect({ [k]: after[k] <= allowed(k) }).toEqual({ [k]: true });
    }
    expect(after.rssMiB - before.rssMiB).toBeLessThanOrEqual(RSS_TOLERANCE_MIB);
    expect(profilesLeft).toEqual([]);
  });
});
