// endpoints.vnc of a desktop: its screen over RFB, for noVNC. x11vnc runs on the
// host (installed by the set-up), started by the first VNC client and stopped
// when the last one leaves or the desktop stops. It listens on 127.0.0.1 only
// (-localhost), on a free port, and speaks WebSocket on that port itself, so the
// gateway (vncUpgrade) only authorizes and splices. No VNC password (-nopw): the
// gateway's token or API key is the gate. It reaches the display through
// HostDisplay; -noshm because MIT-SHM segments x11vnc makes as host root are
// not attachable by the desktop's Xvfb, which runs in a user namespace (x11vnc
// exits 1 with "X_ShmAttach BadAccess" otherwise — measured); -repeat leaves the
// display's key autorepeat alone (x11vnc turns it off while clients are
// connected, and a killed x11vnc would not turn it back on). It carries the
// desktop's marker, so a restarted server reaps it with the desktop.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import type { VncCapability, VncLease } from "@/lib/computers/driver";
import { hostEnv, killGroup } from "@/lib/computers/desktop/enter";
import type { HostDisplay } from "@/lib/computers/desktop/host-display";

const START_TIMEOUT_MS = 10_000;
const START_ATTEMPTS = 3;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export class DesktopVnc implements VncCapability {
  private starting: Promise<number> | null = null;
  private child: ChildProcess | null = null;
  private clients = 0;
  private stopped = false;
  /** Bumped by every kill: a start begun before it must not leave an x11vnc behind. */
  private generation = 0;

  constructor(
    private readonly x11vnc: string,
    private readonly display: HostDisplay,
    private readonly marker: string,
  ) {}

  /** x11vnc processes running now (0 or 1), for resources() and the leak checks. */
  get running(): number {
    return this.child ? 1 : 0;
  }

  /** A client's hold on x11vnc: its port; `release` when the client leaves (the last one stops x11vnc). */
  async open(): Promise<VncLease> {
    if (this.stopped) throw new Error("the desktop is stopping");
    this.clients++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--this.clients === 0) this.kill();
    };
    try {
      this.starting ??= this.startWithRetries();
      return { port: await this.starting, release };
    } catch (err) {
      release();
      throw err;
    }
  }

  private async startWithRetries(): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.start();
      } catch (err) {
        // Another program may have taken the free port between the probe and x11vnc's bind.
        if (attempt >= START_ATTEMPTS || this.stopped || this.clients === 0) {
          this.starting = null;
          throw err;
        }
      }
    }
  }

  private async start(): Promise<number> {
    const generation = this.generation;
    const { display, xauthority } = await this.display.address();
    const port = await freePort();
    if (this.stopped || generation !== this.generation) throw new Error("no VNC client is waiting any more");
    const child = spawn(
      this.x11vnc,
      [
        "-display",
        display,
        "-auth",
        xauthority,
        "-localhost",
        "-rfbport",
        String(port),
        "-shared",
        "-forever",
        "-nopw",
        "-noshm",
        "-repeat",
        "-noipv6",
        "-nossl",
        "-quiet",
      ],
      { stdio: ["ignore", "pipe", "pipe"], detached: true, env: hostEnv(this.marker, { HOME: "/nonexistent" }) },
    );
    this.child = child;
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-1000)));
    child.once("exit", () => {
      if (this.child !== child) return;
      this.child = null;
      this.starting = null;
    });
    return new Promise<number>((resolve, reject) => {
      let out = "";
      const fail = (why: string) => {
        clearTimeout(timer);
        killGroup(child);
        reject(
          new Error(`x11vnc ${why}${stderr.trim() ? `: ${stderr.trim().split("\n").slice(-3).join(" / ")}` : ""}`),
        );
      };
      const timer = setTimeout(() => fail("did not listen in time"), START_TIMEOUT_MS);
      child.once("exit", (code) => fail(`exited (${code})`));
      child.once("error", (err) => fail(`could not start (${err.message})`));
      // x11vnc prints PORT=<n> once it listens.
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        if (/PORT=\d+/.test(out)) {
          clearTimeout(timer);
          resolve(Number(/PORT=(\d+)/.exec(out)![1]));
        }
      });
    });
  }

  private kill() {
    this.generation++;
    if (this.child) killGroup(this.child);
    this.child = null;
    this.starting = null;
  }

  /** The desktop is stopping: end x11vnc; clients' sockets close with it. */
  stop() {
    this.stopped = true;
    this.kill();
  }
}
