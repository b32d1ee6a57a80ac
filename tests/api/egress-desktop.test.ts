// @needs server desktop
// Desktop egress (docs/security.md "Session egress"): a desktop has its own network
// namespace with outbound NAT and the egress policy as its firewall. It cannot reach
// a service on the host's loopback (seen from inside as 10.0.2.2, slirp4netns's
// address for the host's 127.0.0.1) nor Cabin itself, nor the host's own interface
// addresses; SESSION_EGRESS_ALLOW=127.0.0.0/8 lets it reach the test service but
// still not Cabin; a server it binds on 0.0.0.0 is not reachable from the host; and
// no process in it sees a host path in its environment.
import { createServer } from "node:http";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, useDesktopServer } from "./desktop-fixtures";
import { freePort } from "./harness";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { waitFor } from "./wait-for";

const HOST_LOOPBACK = "10.0.2.2";

// Connects from inside the desktop and prints CONNECTED <answer> or REFUSED <errno name>.
const CONNECT = String.raw`python3 -c '
import errno, socket, sys
s = socket.socket(); s.settimeout(5)
try:
    s.connect((sys.argv[1], int(sys.argv[2]))); s.sendall(b"GET / HTTP/1.0\r\n\r\n"); print("CONNECTED", s.recv(300).decode("latin1"))
except OSError as e:
    print("REFUSED", errno.errorcode.get(e.errno, str(e)))
'`;

type Target = Parameters<typeof exec>[0];

async function connectFrom(t: Target, id: string, host: string, port: number): Promise<string> {
  const res = await exec(t, id, `${CONNECT} ${host} ${port}`, { timeout_seconds: 30 });
  return (res.stdout + res.stderr).trim();
}

function hostInterfaceAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === "IPv4")?.address;
}

let secret: LoopbackServer;
beforeAll(async () => {
  secret = await listenOnLoopback(createServer((_req, res) => res.end("host-only-secret")));
});
afterAll(async () => {
  await secret?.close();
});
const secretPort = () => Number(new URL(secret.url).port);

describe.skipIf(!canRunDesktops)("desktop egress, default policy (public-only, no allow-list)", () => {
  const s = useDesktopServer({ SESSION_EGRESS: "public-only", SESSION_EGRESS_ALLOW: "" });
  let id = "";

  it("cannot reach the host's loopback, Cabin itself or the host's interface address", {
    timeout: 180_000,
  }, async () => {
    id = (await createDesktop(s.a)).id;
    const cabinPort = Number(new URL(s.server.url).port);
    // The test service and Cabin, at the host-loopback address and at 127.0.0.1 (the desktop's own loopback).
    for (const [host, port] of [
      [HOST_LOOPBACK, secretPort()],
      ["127.0.0.1", secretPort()],
      [HOST_LOOPBACK, cabinPort],
      ["127.0.0.1", cabinPort],
    ] as const) {
      const answer = await connectFrom(s.a, id, host, port);
      expect(answer, `${host}:${port}`).toMatch(/^REFUSED/);
      expect(answer).not.toMatch(/host-only-secret/);
    }
    // Refused by the firewall (admin-prohibited: EHOSTUNREACH), not merely unanswered.
    expect(await connectFrom(s.a, id, HOST_LOOPBACK, secretPort())).toMatch(/REFUSED (EHOSTUNREACH|ENETUNREACH)/);
    const address = hostInterfaceAddress();
    if (address) expect(await connectFrom(s.a, id, address, cabinPort)).toBe("REFUSED EHOSTUNREACH");
    // Link-local / cloud metadata.
    expect(await connectFrom(s.a, id, "169.254.169.254", 80)).toBe("REFUSED EHOSTUNREACH");
  });

  it("resolves public names through its own resolver", { timeout: 60_000 }, async () => {
    const res = await exec(s.a, id, "cat /etc/resolv.conf; getent hosts deb.debian.org >/dev/null && echo resolved");
    expect(res.stdout).toMatch(/nameserver 10\.0\.2\.3/);
    expect(res.stdout).toMatch(/resolved/);
  });

  it("binds 0.0.0.0 inside itself only: the host cannot reach it and its port stays free", {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    await exec(s.a, id, `setsid nohup python3 -m http.server ${port} --bind 0.0.0.0 >/dev/null 2>&1 & echo started`);
    await waitFor(() => connectFrom(s.a, id, "127.0.0.1", port), {
      until: (a) => a.startsWith("CONNECTED"),
      timeoutMs: 30_000,
      message: "the desktop's own server",
    });
    const fromHost = await fetch(`http://127.0.0.1:${port}/`).then(
      (r) => `answered ${r.status}`,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message,
    );
    expect(fromHost).toBe("ECONNREFUSED");
    // The host's port was never taken: the host can still listen on it.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(port, "0.0.0.0", resolve));
    await new Promise((r) => probe.close(r));
  });

  it("shows no host path in any of its processes' environments", { timeout: 60_000 }, async () => {
    const dataDir = s.server.dataDir;
    const res = await exec(
      s.a,
      id,
      `env; sudo sh -c 'for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < "$f"; echo; done'`,
    );
    expect(res.exit_code).toBe(0);
    expect(res.stdout).toMatch(/^CABIN_DESKTOP=/m); // tini's marker is still there for reaping, ...
    expect(res.stdout).not.toContain(dataDir); // ... but it names no host path
    expect(res.stdout).not.toMatch(/\/desktops\//);
    expect((await api("DELETE", `/computers/${id}`, undefined, s.a)).status).toBe(204);
  });
});

describe.skipIf(!canRunDesktops)("desktop egress with SESSION_EGRESS_ALLOW=127.0.0.0/8", () => {
  const s = useDesktopServer({ SESSION_EGRESS_ALLOW: "127.0.0.0/8" });

  it("reaches the allowed loopback service at 10.0.2.2, but still not Cabin", { timeout: 180_000 }, async () => {
    const { id } = await createDesktop(s.a);
    expect(await connectFrom(s.a, id, HOST_LOOPBACK, secretPort())).toMatch(/^CONNECTED[\s\S]*host-only-secret/);
    const cabinPort = Number(new URL(s.server.url).port);
    expect(await connectFrom(s.a, id, HOST_LOOPBACK, cabinPort)).toBe("REFUSED EHOSTUNREACH");
    expect((await api("DELETE", `/computers/${id}`, undefined, s.a)).status).toBe(204);
  });
});
