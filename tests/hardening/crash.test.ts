// @needs server quiet-machine chromium desktop
// Crash suite (docs/development.md "Hardening suites"): SIGKILL a server of our own while a persistent browser
// (cookie set) and a persistent desktop (file written, a user's process running) are
// live; within 2 s of the kill, before any restart, no desktop process is left; after the restart
// nothing of the dead server is left on the host (processes, mounts, desktop dirs,
// temp profiles), the rows are crashed with terminated_at = the last heartbeat,
// and both saved states come back in new sessions.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveStateKey, openState } from "@/lib/computers/state/state-crypto";
import { createDb } from "@/lib/db";
import { createOrgKey, startServer, type TestServer } from "../api/harness";
import {
  api,
  chromiumPidsOf,
  createSession,
  readBrowserState,
  setBrowserState,
  startSite,
  waitFor,
  type Site,
  type Target,
} from "../api/computers-fixtures";
import { canRunDesktops, createDesktop, desktopImagesDir, exec } from "../api/desktop-fixtures";
import {
  census,
  desktopDirs,
  desktopMarkedPids,
  descendantsOf,
  mountsUnder,
  printSummary,
  profilesOf,
} from "./host-census";

/** Known to the test, so it can open what the server saved. */
const STATE_ENCRYPTION_KEY = "hardening-crash-state-key-0123456789";

/** The session's last saved state, opened ("" while nothing is saved). */
async function savedState(server: TestServer, computerId: string): Promise<Buffer> {
  const { client } = createDb(server.databaseUrl);
  try {
    const row = await client.computerState.findUnique({ where: { computerId } });
    if (!row) return Buffer.alloc(0);
    const sealed = row.data ? Buffer.from(row.data) : readFileSync(path.join(server.dataDir, row.filePath!));
    return openState(sealed, computerId, deriveStateKey(STATE_ENCRYPTION_KEY));
  } finally {
    await client.$disconnect();
  }
}

/** The file names in a desktop's saved state (a tar.zst of its upper layer). */
function savedDesktopFiles(state: Buffer): string {
  if (!state.length) return "";
  const listed = spawnSync("sh", ["-c", "zstd -dc | tar -t"], { input: state, maxBuffer: 64 * 1024 * 1024 });
  return listed.stdout.toString("utf8");
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

describe("crash: SIGKILL with live persistent sessions of both kinds", () => {
  // Also: saved states restore.
  it("leaves no process, mount, desktop dir or temp profile; rows crashed at the last beat", async () => {
    let server = await startServer({
      env: {
        STATE_SAVE_INTERVAL_SECONDS: "1",
        STATE_ENCRYPTION_KEY,
        ...(canRunDesktops ? { DESKTOP_IMAGES_DIR: desktopImagesDir() } : {}),
      },
    });
    servers.push(server);
    const target: Target = { base: server.url, key: await createOrgKey(server, "Crash Suite Org") };

    const browser = await createSession({ persistent: true }, target);
    await setBrowserState(browser.id, site, "crashsuite", target);
    await waitFor(
      "a periodic save holding the cookie",
      async () => (await savedState(server, browser.id)).toString("utf8"),
      (t) => t.includes("crashsuite"),
      15_000,
      250,
    );
    let desktop: { id: string } | undefined;
    if (canRunDesktops) {
      desktop = await createDesktop(target, { persistent: true });
      await exec(target, desktop.id, "echo written-before-kill > ~/crash-suite.txt && sync");
      // A user's own long-running process, which must die with the server too.
      await exec(target, desktop.id, "nohup sleep 600 >/dev/null 2>&1 &");
      const id = desktop.id;
      await waitFor(
        "a periodic desktop save holding the file",
        async () => savedDesktopFiles(await savedState(server, id)),
        (names) => names.includes("crash-suite.txt"),
        30_000,
        500,
      );
    }

    const before = census(server);
    const profiles = profilesOf(server.dataDir);
    const tree = descendantsOf(server.process.pid!);
    expect(before.chromiumMains).toBeGreaterThan(0);
    expect(profiles.length).toBeGreaterThan(0);
    if (canRunDesktops) expect(before.desktopProcesses).toBeGreaterThan(0);

    const killedAt = Date.now();
    await server.kill("SIGKILL");
    // Before any restart: every desktop process died with the server (launchSandbox binds them to its life).
    const desktopAfterKill = canRunDesktops
      ? await waitFor(
          "no desktop process within 2 s of the kill",
          async () => desktopMarkedPids(server.dataDir).length,
          (n) => n === 0,
          2_000,
          100,
        )
      : 0;
    server = await server.restart();
    servers.push(server);

    // The restart reaps what the dead server left (Chromium, desktops, ffmpeg/x11vnc, mounts, dirs, /tmp profiles).
    const alive = (pid: number) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
      } catch {
        return false;
      }
    };
    const leftovers = () => ({
      processes: tree.filter(alive).length,
      desktopProcesses: desktopMarkedPids(server.dataDir).length,
      mounts: mountsUnder(server.dataDir),
      desktopDirs: desktopDirs(server.dataDir).length,
      tempProfiles: profiles.filter((dir) => existsSync(dir)).length,
    });
    const after = await waitFor(
      "nothing of the dead server left",
      async () => leftovers(),
      (l) => Object.values(l).every((n) => n === 0),
      30_000,
      250,
    );

    const rows = [browser.id, ...(desktop ? [desktop.id] : [])];
    for (const id of rows) {
      const row = await waitFor(
        `${id} crashed`,
        async () => (await api("GET", `/computers/${id}`, undefined, target)).body,
        (r) => r.status === "terminated",
        20_000,
        250,
      );
      expect(row.termination_reason).toBe("crashed");
      // The last heartbeat (beaten every second) before the kill, not the restart time.
      expect(Date.parse(row.terminated_at)).toBeLessThanOrEqual(killedAt + 1_000);
      expect(Date.parse(row.terminated_at)).toBeGreaterThanOrEqual(Date.parse(row.created_at));
    }

    const restoredBrowser = await createSession({ environment_id: browser.id }, target);
    const cookie = (await readBrowserState(restoredBrowser.id, site, target)).split("|")[0];
    let file = "(desktops not available here)";
    if (desktop) {
      const restoredDesktop = await createDesktop(target, { environment_id: desktop.id });
      file = (await exec(target, restoredDesktop.id, "cat ~/crash-suite.txt")).stdout.trim();
    }

    printSummary(
      "crash suite: the dead server's leftovers after restart",
      ["measure", "before kill", "after restart"],
      [
        ["server processes (tree)", tree.length, after.processes],
        [
          "Chromium mains (--cabin-owner)",
          before.chromiumMains,
          chromiumPidsOf(server.dataDir).filter((p) => tree.includes(p)).length,
        ],
        ["desktop processes (CABIN_DESKTOP), 2 s after the kill", before.desktopProcesses, desktopAfterKill],
        ["desktop processes (CABIN_DESKTOP), after restart", before.desktopProcesses, after.desktopProcesses],
        ["mounts under the data dir", before.mounts, after.mounts],
        ["desktop dirs of dead sessions", before.desktopDirs, after.desktopDirs],
        ["temp profiles (/tmp playwright)", profiles.length, after.tempProfiles],
        ["restored cookie", "crashsuite", cookie],
        ["restored desktop file", desktop ? "written-before-kill" : "-", file],
      ],
    );
    expect(after).toEqual({ processes: 0, desktopProcesses: 0, mounts: 0, desktopDirs: 0, tempProfiles: 0 });
    expect(cookie).toBe("crashsuite");
    if (desktop) expect(file).toBe("written-before-kill");
  });
});
