// @needs server desktop
// Desktop lifetimes are the manager's (idle kill, lifetime kill, DELETE); every end
// must leave no process, namespace, mount or file behind, and a killed server's
// desktops are cleaned up by the next one.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, waitFor } from "./computers-fixtures";
import {
  canRunDesktops,
  createDesktop,
  desktopHealth,
  desktopProgramsOnHost,
  exec,
  overlayMountsUnder,
  startDesktopServer,
  waitTerminated,
  type DesktopServer,
} from "./desktop-fixtures";

describe.skipIf(!canRunDesktops)("desktop lifecycle", () => {
  let s: DesktopServer;
  let baseline: string[];
  beforeAll(async () => {
    baseline = desktopProgramsOnHost();
    s = await startDesktopServer();
  });
  afterAll(async () => {
    await s?.server.destroy();
  });

  const clean = async () => {
    const health = await waitFor(
      "no desktop left",
      () => desktopHealth(s.a),
      (h) => h.live_desktops === 0 && h.desktop_processes === 0 && h.session_dirs === 0,
      20_000,
      250,
    );
    expect(health).toMatchObject({ live_desktops: 0, desktop_processes: 0, session_dirs: 0 });
    expect(desktopProgramsOnHost().filter((p) => !baseline.includes(p))).toEqual([]);
    expect(overlayMountsUnder(s.server.dataDir)).toBe(0);
  };

  it("ends an idle desktop (inactivity) and one past its lifetime (max_lifetime), leaving nothing", async () => {
    const idle = await createDesktop(s.a, { inactivity_timeout_seconds: 2 });
    const old = await createDesktop(s.a, { timeout_seconds: 4, auto_kill: false });
    const idleEnd = await waitTerminated(s.a, idle.id);
    expect(idleEnd.termination_reason).toBe("inactivity");
    // Activity (exec) keeps the other one; its lifetime still ends it.
    expect((await exec(s.a, old.id, "echo alive")).stdout).toBe("alive\n");
    const oldEnd = await waitTerminated(s.a, old.id);
    expect(oldEnd.termination_reason).toBe("max_lifetime");
    expect((await api("POST", `/computers/${old.id}/exec/sync`, { command: "true" }, s.a)).status).toBe(409);
    await clean();
  });

  it("20 create/delete cycles leave no Xvfb, window manager, namespace, overlay mount or directory", {
    timeout: 240_000,
  }, async () => {
    for (let i = 0; i < 20; i++) {
      const d = await createDesktop(s.a, i % 2 ? { persistent: true } : {});
      if (i % 5 === 0) expect((await exec(s.a, d.id, "echo hi")).stdout).toBe("hi\n");
      expect((await api("DELETE", `/computers/${d.id}`, undefined, s.a)).status).toBe(204);
    }
    await clean();
  });

  it("a restarted server cleans up the desktops of a killed one and marks them crashed", {
    timeout: 120_000,
  }, async () => {
    const d = await createDesktop(s.a);
    expect(desktopProgramsOnHost().length).toBeGreaterThan(baseline.length);
    await s.server.kill("SIGKILL");
    s.server = await s.server.restart();
    s.a.base = s.b.base = s.server.url;
    const row = await waitFor(
      "crashed row",
      async () => (await api("GET", `/computers/${d.id}`, undefined, s.a)).body,
      (r) => r.status === "terminated",
      20_000,
      250,
    );
    expect(row.termination_reason).toBe("crashed");
    await clean();
    const sessions = path.join(s.server.dataDir, "desktops");
    expect(existsSync(sessions) ? readdirSync(sessions) : []).toEqual([]);
  });
});
