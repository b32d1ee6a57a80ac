// @needs server chromium
// Crashes and restarts on servers of our own: a SIGKILLed server leaves no
// Chromium behind, its sessions come back terminated/crashed and the state
// saved before the kill is usable; SIGTERM ends sessions cleanly (saving state);
// a Chromium that dies ends its sessions as crashed and the pool recovers.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveStateKey, openState } from "@/lib/computers/state/state-crypto";
import { createDb } from "@/lib/db";
import { createOrgKey, startServer, type TestServer } from "./harness";
import {
  api,
  chromiumPidsOf,
  createSession,
  poolStats,
  readBrowserState,
  setBrowserState,
  startSite,
  waitFor,
  type Site,
  type Target,
} from "./computers-fixtures";

/** Known to the test, so it can open what the server saved. */
const STATE_ENCRYPTION_KEY = "crash-test-state-key-0123456789abcdef";

/** The session's last saved state as plain text, or "" while nothing is saved. */
async function savedStateText(server: TestServer, computerId: string): Promise<string> {
  const { client } = createDb(server.databaseUrl);
  try {
    const row = await client.computerState.findUnique({ where: { computerId } });
    if (!row) return "";
    const sealed = row.data ? Buffer.from(row.data) : readFileSync(path.join(server.dataDir, row.filePath!));
    return openState(sealed, computerId, deriveStateKey(STATE_ENCRYPTION_KEY)).toString("utf8");
  } finally {
    await client.$disconnect();
  }
}

let site: Site;
const servers: TestServer[] = [];

beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  for (const s of servers) await s.destroy().catch(() => {});
  await site?.close();
});

async function ownServer(env: Record<string, string> = {}) {
  const server = await startServer({ env });
  servers.push(server);
  return server;
}

function killIfRunning(pid: number) {
  try {
    process.kill(pid, "SIGKILL");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

/** Running (a zombie waiting for its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

// Each test boots one or two servers of its own: give them room beyond the suite's 60 s on a loaded machine.
describe("crash and restart", { timeout: 120_000 }, () => {
  // Also: after restart the row is crashed and the saved state works.
  it("SIGKILL mid-session: Chromium dies with the server", async () => {
    let server = await ownServer({ STATE_SAVE_INTERVAL_SECONDS: "1", STATE_ENCRYPTION_KEY });
    const target: Target = { base: server.url, key: await createOrgKey(server, "Crash Org") };
    const s = await createSession({ persistent: true }, target);
    await setBrowserState(s.id, site, "beforekill", target);
    // A periodic save has written all three values (cookie, localStorage, IndexedDB) before the kill.
    await waitFor(
      "a periodic save with the state",
      () => savedStateText(server, s.id),
      (text) => (text.match(/beforekill/g) ?? []).length >= 3,
      10_000,
      250,
    );
    const pids = chromiumPidsOf(server.dataDir);
    expect(pids.length).toBeGreaterThan(0);

    const profiles = pids
      .map(
        (pid) => /--user-data-dir=(\S+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "))?.[1],
      )
      .filter(Boolean);
    expect(profiles.length).toBeGreaterThan(0);
    const createdAt = Date.parse(s.created_at);
    const killedAt = Date.now();
    await server.kill("SIGKILL");
    await waitFor(
      "Chromium gone",
      async () => pids.filter(alive),
      (left) => left.length === 0,
      10_000,
    );

    server = await server.restart();
    servers.push(server);
    const row = await api("GET", `/computers/${s.id}`, undefined, target);
    expect(row.body).toMatchObject({ status: "terminated", termination_reason: "crashed" });
    // Ended when the server died (its last heartbeat, beaten every second), not when it came back.
    const terminatedAt = Date.parse(row.body.terminated_at);
    expect(terminatedAt).toBeGreaterThanOrEqual(createdAt);
    expect(terminatedAt).toBeLessThanOrEqual(killedAt + 1_000);
    expect((await api("POST", `/computers/${s.id}/keepalive`, undefined, target)).status).toBe(409);
    // The dead browser's temporary profile is removed by the restart, not left in the temp folder.
    await waitFor(
      "the crashed browser's profile removed",
      async () => profiles.filter((dir) => existsSync(dir!)),
      (left) => left.length === 0,
      30_000,
    );

    const restored = await createSession({ environment_id: s.id }, target);
    expect(await readBrowserState(restored.id, site, target)).toBe("beforekill|beforekill|beforekill");
  });

  it("SIGTERM ends every session cleanly, saving persistent state", async () => {
    let server = await ownServer({ STATE_SAVE_INTERVAL_SECONDS: "3600" });
    const target: Target = { base: server.url, key: await createOrgKey(server, "Shutdown Org") };
    const s = await createSession({ persistent: true }, target);
    const plain = await createSession({}, target);
    await setBrowserState(s.id, site, "atshutdown", target);
    const pids = chromiumPidsOf(server.dataDir);

    await server.stop();
    expect(pids.filter(alive)).toEqual([]);

    server = await server.restart();
    servers.push(server);
    for (const id of [s.id, plain.id]) {
      const row = await api("GET", `/computers/${id}`, undefined, target);
      expect(row.body).toMatchObject({ status: "terminated", termination_reason: "server_shutdown" });
    }
    const restored = await createSession({ environment_id: s.id }, target);
    expect(await readBrowserState(restored.id, site, target)).toBe("atshutdown|atshutdown|atshutdown");
  });

  it("a Chromium that dies ends its sessions as crashed; new sessions get a new browser", async () => {
    const server = await ownServer();
    const target: Target = { base: server.url, key: await createOrgKey(server, "Chromium Crash Org") };
    const a = await createSession({}, target);
    const b = await createSession({}, target);
    // Every Chromium of the server (the organization's and the spare). A process may end between the listing and
    // the kill: a child Chromium forks carries the marker until it execs (CI saw ESRCH while a spare launched).
    for (const pid of chromiumPidsOf(server.dataDir)) killIfRunning(pid);
    for (const id of [a.id, b.id]) {
      const ended = await waitFor(
        `${id} crashed`,
        async () => (await api("GET", `/computers/${id}`, undefined, target)).body,
        (row) => row.status === "terminated",
        10_000,
      );
      expect(ended.termination_reason).toBe("crashed");
    }
    const next = await createSession({}, target);
    expect((await api("GET", `/computers/${next.id}/tabs`, undefined, target)).status).toBe(200);
    // The organization's new browser and a new spare.
    const stats = await waitFor(
      "a browser for the organization and a spare",
      () => poolStats(server.url),
      (p) => p.browsers === 2,
    );
    expect(stats.organization_browsers).toBe(1);
    expect(stats.session_contexts).toBe(1);
  });

  it("replaces a browser after BROWSER_RECYCLE_AFTER_CONTEXTS sessions; it closes with its last session", async () => {
    const server = await ownServer({
      BROWSER_RECYCLE_AFTER_CONTEXTS: "3",
      BROWSER_STANDBY_CONTEXTS: "1",
      BROWSER_ORG_IDLE_SECONDS: "1",
    });
    const target: Target = { base: server.url, key: await createOrgKey(server, "Recycle Org") };
    const first = chromiumPidsOf(server.dataDir);
    expect(first).toHaveLength(1);
    const sessions = [];
    for (let i = 0; i < 4; i++) sessions.push(await createSession({}, target));
    // The retired one still runs its sessions, beside the organization's next browser (and a spare behind it).
    const during = chromiumPidsOf(server.dataDir);
    expect(during).toContain(first[0]);
    expect(during.length).toBeGreaterThanOrEqual(2);
    for (const s of sessions) expect((await api("GET", `/computers/${s.id}/tabs`, undefined, target)).status).toBe(200);
    for (const s of sessions) await api("DELETE", `/computers/${s.id}`, undefined, target);
    // The retired one closes with its last session, the organization's other one a second later
    // (BROWSER_ORG_IDLE_SECONDS).
    const after = await waitFor(
      "retired and idle browsers closed",
      async () => chromiumPidsOf(server.dataDir),
      (p) => p.length === 1,
      15_000,
    );
    expect(first.every((pid) => !after.includes(pid))).toBe(true);
  });

  it("a session that cannot start leaves a terminated provision_failed row and a clear message", async () => {
    const server = await ownServer({ CHROMIUM_PATH: "/nonexistent/chromium" });
    const target: Target = { base: server.url, key: await createOrgKey(server, "No Chromium Org") };
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as any).checks.sessions.message).toMatch(/CHROMIUM_PATH/);
    const res = await api("POST", "/computers", {}, target);
    expect(res.status).toBe(503);
    expect(res.body.error.message).toMatch(/CHROMIUM_PATH is set to '\/nonexistent\/chromium'/);
    const rows = (await api("GET", "/computers", undefined, target)).body;
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe("terminated");
    expect((await api("GET", `/computers/${rows[0].id}`, undefined, target)).body.termination_reason).toBe(
      "provision_failed",
    );
    expect((await api("GET", "/computers?type=live", undefined, target)).body).toEqual([]);
  });
});
