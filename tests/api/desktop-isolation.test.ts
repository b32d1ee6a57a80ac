// @needs server desktop
// Two desktops cannot see each other's files, display or processes, and nothing of
// the host (its database, its files) is visible inside one; root inside is not root outside.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, startDesktopServer, type DesktopServer } from "./desktop-fixtures";

describe.skipIf(!canRunDesktops)("desktop isolation", () => {
  let s: DesktopServer;
  let a: { id: string };
  let b: { id: string };
  beforeAll(async () => {
    s = await startDesktopServer();
    a = await createDesktop(s.a, { display: { width: 1024, height: 768 } });
    b = await createDesktop(s.a);
  });
  afterAll(async () => {
    await s?.server.destroy();
  });

  it("a file written in A is visible neither in B nor on the host", async () => {
    const secret = `secret-${Date.now()}`;
    expect(
      (
        await exec(
          s.a,
          a.id,
          `echo ${secret} > ~/a-only.txt && echo ${secret} | sudo tee /etc/a-only.conf >/dev/null && echo ok`,
        )
      ).stdout,
    ).toBe("ok\n");
    const inB = await exec(s.a, b.id, "cat ~/a-only.txt /etc/a-only.conf");
    expect(inB.stdout).toBe("");
    expect(inB.exit_code).not.toBe(0);
    expect((await exec(s.a, b.id, "sudo find / -xdev -name 'a-only*' 2>/dev/null")).stdout).toBe("");
    expect(existsSync("/home/user/a-only.txt")).toBe(false);
    expect(existsSync("/etc/a-only.conf")).toBe(false);
  });

  it("B cannot reach A's display: no shared X socket, only its own display answers", async () => {
    const sockets = await exec(s.a, b.id, "ls /tmp/.X11-unix");
    expect(sockets.stdout.trim()).toBe("X0");
    expect((await exec(s.a, b.id, "xdpyinfo | grep dimensions")).stdout).toMatch(/1280x720/);
    expect((await exec(s.a, a.id, "xdpyinfo | grep dimensions")).stdout).toMatch(/1024x768/);
    // Abstract-namespace X sockets would be shared through the host's network namespace: there must be none.
    expect(readFileSync("/proc/net/unix", "utf8")).not.toMatch(/@\/tmp\/\.X11-unix/);
    // Without A's cookie even a socket would refuse: B's own server rejects a client with no authority.
    const noAuth = await exec(s.a, b.id, "XAUTHORITY=/dev/null xdpyinfo >/dev/null");
    expect(noAuth.exit_code).not.toBe(0);
    expect(noAuth.stderr).toMatch(/unable to open display|Authorization|protocol/i);
  });

  it("B sees none of A's processes", async () => {
    await exec(s.a, a.id, "(exec -a cabin-marker-a sleep 600) >/dev/null 2>&1 & echo started");
    expect((await exec(s.a, a.id, "ps -eo args")).stdout).toMatch(/cabin-marker-a/);
    const psB = await exec(s.a, b.id, "sudo ps -eo args");
    expect(psB.stdout).not.toMatch(/cabin-marker-a/);
    expect(psB.stdout.split("\n").filter((l) => /^Xvfb/.test(l))).toHaveLength(1);
  });

  it("nothing of the host is visible inside; root inside maps to an unprivileged host id", async () => {
    const dataDir = s.server.dataDir;
    const probe = await exec(
      s.a,
      a.id,
      `sudo ls ${dataDir} ${path.join(dataDir, "cabin.db")} /work 2>&1; cat /proc/self/uid_map; sudo id -u`,
    );
    expect(probe.stdout).toMatch(/No such file or directory/);
    expect(probe.stdout).not.toMatch(/cabin\.db\n/);
    expect(probe.stdout).toMatch(/^\s*0\s+1000000\s+65536$/m);
    expect(probe.stdout.trim().split("\n").at(-1)).toBe("0");
    const mounts = await exec(s.a, a.id, "sudo mount -t tmpfs none /mnt 2>&1");
    expect(mounts.stdout).toMatch(/permission denied|not permitted/i);
  });

  it("a foreign organization cannot reach the desktops", async () => {
    expect((await api("POST", `/computers/${a.id}/exec/sync`, { command: "id" }, s.b)).status).toBe(404);
    expect((await api("POST", `/computers/${a.id}/screenshot`, {}, s.b)).status).toBe(404);
  });
});
