// @needs server desktop
// Warm desktops (docs/desktops.md "Warm desktops"): with DESKTOP_STANDBY=1 a fresh desktop
// is started ahead of demand, and a create at the default screen size adopts it — the
// session's files land in the standby desktop's own folder, which existed before the
// create. The standby refills behind it; a create with another screen size starts cold;
// a clean stop ends the standby desktop too, leaving no process, mount or folder.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desktopDirs, desktopMarkedPids, mountsUnder } from "../hardening/host-census";
import { api, waitFor } from "./computers-fixtures";
import {
  canRunDesktops,
  createDesktop,
  type DesktopServer,
  desktopHealth,
  exec,
  startDesktopServer,
} from "./desktop-fixtures";

describe.skipIf(!canRunDesktops)("warm desktops (DESKTOP_STANDBY)", () => {
  let s: DesktopServer;
  beforeAll(async () => {
    s = await startDesktopServer({ DESKTOP_STANDBY: "1" });
  }, 120_000);
  afterAll(async () => {
    await s?.server.destroy();
  });

  const standbyReady = () =>
    waitFor(
      "a standby desktop ready",
      () => desktopHealth(s.a),
      (h) => h.standby_desktops === 1,
      60_000,
      250,
    );
  const dirs = () => desktopDirs(s.server.dataDir);

  it("hands the started desktop to a create, and refills behind it", async () => {
    await standbyReady();
    const [standby] = dirs();
    expect(dirs()).toHaveLength(1);
    expect(standby).toMatch(/^standby-/);

    const d = await createDesktop(s.a);
    expect((await exec(s.a, d.id, "echo adopted > ~/adopted.txt && echo ok")).stdout).toBe("ok\n");
    // The session runs in the desktop that was started before its create.
    const file = path.join(s.server.dataDir, "desktops", standby!, "upper", "home", "user", "adopted.txt");
    expect(readFileSync(file, "utf8")).toBe("adopted\n");

    // Another standby desktop replaces it; the session's stays its own.
    await standbyReady();
    expect(dirs().filter((name) => name !== standby)).toHaveLength(1);
    expect((await api("DELETE", `/computers/${d.id}`, undefined, s.a)).status).toBe(204);
    await waitFor(
      "the session's desktop folder removed",
      async () => existsSync(file),
      (present) => !present,
      20_000,
      250,
    );
  });

  it("starts a desktop of another screen size cold, leaving the standby ready", async () => {
    await standbyReady();
    const [standby] = dirs();
    const d = await createDesktop(s.a, { display: { width: 1024, height: 768 } });
    expect(dirs()).toContain(standby);
    expect(dirs()).toHaveLength(2);
    expect((await exec(s.a, d.id, "echo cold")).stdout).toBe("cold\n");
    expect((await desktopHealth(s.a)).standby_desktops).toBe(1);
    expect((await api("DELETE", `/computers/${d.id}`, undefined, s.a)).status).toBe(204);
  });

  it("ends the standby desktop on a clean stop: no process, mount or folder left", async () => {
    await standbyReady();
    expect(desktopMarkedPids(s.server.dataDir).length).toBeGreaterThan(0);
    await s.server.stop();
    expect(desktopMarkedPids(s.server.dataDir)).toEqual([]);
    expect(mountsUnder(s.server.dataDir)).toBe(0);
    expect(dirs()).toEqual([]);
  });
});
