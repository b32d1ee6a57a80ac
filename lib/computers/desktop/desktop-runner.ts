// A running desktop: the sandbox (`launchSandbox`) with Xvfb, openbox and an xterm in it,
// started as the desktop user. Ready means input really works: the window manager
// is up, the terminal is mapped and an X client got an answer. First X clients
// can stall for seconds on this kind of host, so every wait has a timeout and a
// stalled step is restarted rather than waited on forever.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import {
  DISPLAY,
  killGroup,
  runInside,
  spawnInside,
  superviseInside,
  XAUTHORITY,
  type RunOptions,
  type RunResult,
  type SupervisedExit,
  type SuperviseOptions,
} from "@/lib/computers/desktop/enter";
import { killSandbox, launchSandbox, prepareDirs, type Sandbox } from "@/lib/computers/desktop/sandbox";
import { extractUpper } from "@/lib/computers/desktop/snapshot";

const SANDBOX_TIMEOUT_MS = 10_000;
const XVFB_TIMEOUT_MS = 10_000;
// Per attempt; a stalled client is killed and started again with more patience.
const CLIENT_ATTEMPT_MS = [2_000, 5_000, 10_000];
const XTERM = ["xterm", "-fa", "DejaVu Sans Mono", "-fs", "11", "-geometry", "110x32+20+20"];
// Probes run inside the desktop, one spawn each, polling every 20 ms. The terminal
// starts only once the WM is up: started together, xterm sometimes waits 5 s or
// never maps (measured here: most parallel starts stalled, 0 of 20 in sequence).
const WM_PROBE = "until xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; do sleep 0.02; done";
const XTERM_PROBE =
  "until xdotool search --onlyvisible --class xterm >/dev/null 2>&1; do sleep 0.02; done; xdotool " +
  "getmouselocation >/dev/null";

export interface DesktopStart {
  id: string;
  width: number;
  height: number;
  rootfs: string;
  sessionsRoot: string;
  /** tar.zst of an upper layer to start from. */
  restore?: Buffer;
  deadline: number;
  onExit: (detail: string) => void;
}

/** X11 authority file with one MIT-MAGIC-COOKIE-1 for any address of display :0. */
function xauthority(cookie: Buffer): Buffer {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
  return Buffer.concat([
    Buffer.from([0xff, 0xff]),
    field(Buffer.alloc(0)),
    field(Buffer.from(DISPLAY.slice(1))),
    field(Buffer.from("MIT-MAGIC-COOKIE-1")),
    field(cookie),
  ]);
}

export class DesktopRunner {
  private apps: ChildProcess[] = [];
  private stopping = false;
  readonly timings: Record<string, number> = {};

  private constructor(
    readonly id: string,
    readonly dir: string,
    readonly upper: string,
    private readonly sandbox: Sandbox,
    private onExit: (detail: string) => void,
  ) {}

  get pid1(): number {
    return this.sandbox.pid1;
  }

  /** Neither stopped nor dead. */
  get alive(): boolean {
    return !this.stopping;
  }

  /** A standby desktop adopted by a session (DesktopStandby): its death is the session's from now on. */
  handOver(onExit: (detail: string) => void): void {
    this.onExit = onExit;
  }

  static async start(input: DesktopStart): Promise<DesktopRunner> {
    const t0 = performance.now();
    const dirs = await prepareDirs(input.sessionsRoot, input.id, xauthority(randomBytes(16)));
    let sandbox: Sandbox | null = null;
    let runner: DesktopRunner | null = null;
    try {
      if (input.restore) await extractUpper(dirs.upper, input.restore);
      const tRestore = performance.now();
      // The namespace (with its network: slirp4netns, the firewall) may take the start's whole budget on a loaded host.
      const sandboxTimeoutMs = Math.max(SANDBOX_TIMEOUT_MS, input.deadline - Date.now());
      sandbox = await launchSandbox({
        rootfs: input.rootfs,
        dir: dirs.dir,
        marker: dirs.dir,
        timeoutMs: sandboxTimeoutMs,
      });
      await rm(/* turbopackIgnore: true */ `${dirs.dir}/Xauthority`, { force: true });
      runner = new DesktopRunner(input.id, dirs.dir, dirs.upper, sandbox, input.onExit);
      const started = runner;
      runner.timings.restore_ms = Math.round(tRestore - t0);
      runner.timings.sandbox_ms = Math.round(performance.now() - tRestore);
      sandbox.exited.then(() => started.died("the desktop's namespace exited"));
      await runner.startDisplay(input);
      runner.timings.total_ms = Math.round(performance.now() - t0);
      return runner;
    } catch (err) {
      // A failed start is not a crash: no onExit for what the failure itself tears down.
      if (runner) runner.stopping = true;
      if (sandbox) await killSandbox(sandbox).catch(() => {});
      await rm(/* turbopackIgnore: true */ dirs.dir, { recursive: true, force: true }).catch(() => {});
      throw err;
    }
  }

  private died(detail: string) {
    if (this.stopping) return;
    this.stopping = true;
    this.onExit(detail);
  }

  private spawnApp(command: string[]): ChildProcess {
    const child = spawnInside(this.pid1, command, { marker: this.dir });
    child.stdout!.resume();
    child.stderr!.resume();
    this.apps.push(child);
    child.once("exit", () => (this.apps = this.apps.filter((c) => c !== child)));
    return child;
  }

  private startXvfb(width: number, height: number): Promise<void> {
    const xvfb = this.spawnApp([
      "Xvfb",
      DISPLAY,
      "-screen",
      "0",
      `${width}x${height}x24`,
      "-nolisten",
      "tcp",
      "-nolisten",
      "local",
      "-auth",
      XAUTHORITY,
      "-displayfd",
      "1",
      "-dpi",
      "96",
    ]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`Xvfb not ready after ${XVFB_TIMEOUT_MS} ms`)), XVFB_TIMEOUT_MS);
      const done = (err?: Error) => {
        clearTimeout(timer);
        xvfb.stdout!.removeAllListeners("data");
        if (err) {
          killGroup(xvfb);
          reject(err);
        } else {
          xvfb.once("exit", (code) => this.died(`Xvfb exited (${code})`));
          resolve();
        }
      };
      // -displayfd: Xvfb writes the display number once it accepts connections.
      xvfb.stdout!.on("data", (d: Buffer) => (/\d/.test(d.toString()) ? done() : undefined));
      xvfb.once("exit", (code) => done(new Error(`Xvfb exited during start-up (${code})`)));
    });
  }

  private async startDisplay(input: DesktopStart) {
    const t = performance.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.startXvfb(input.width, input.height);
        break;
      } catch (err) {
        if (attempt >= 2 || Date.now() > input.deadline) throw err;
        await this.run(["rm", "-f", "/tmp/.X0-lock", "/tmp/.X11-unix/X0"], { timeoutMs: 3000 }).catch(() => {});
      }
    }
    this.timings.xvfb_ms = Math.round(performance.now() - t);
    await this.startClient("window manager", ["openbox"], WM_PROBE, input.deadline);
    this.timings.wm_ms = Math.round(performance.now() - t - this.timings.xvfb_ms);
    await this.startClient("terminal", XTERM, XTERM_PROBE, input.deadline);
    this.timings.terminal_ms = Math.round(performance.now() - t - this.timings.xvfb_ms - this.timings.wm_ms);
  }

  /** Starts an X client and waits for its probe; a stalled client is killed and started again. */
  private async startClient(name: string, command: string[], probe: string, deadline: number) {
    for (const [attempt, patience] of CLIENT_ATTEMPT_MS.entries()) {
      const client = this.spawnApp(command);
      const res = await this.run(["sh", "-c", probe], {
        timeoutMs: Math.max(500, Math.min(patience, deadline - Date.now())),
      });
      if (res.code === 0) {
        if (attempt) this.timings[`${name.replace(" ", "_")}_retries`] = attempt;
        return;
      }
      killGroup(client);
      if (Date.now() >= deadline) break;
    }
    throw new Error(`the desktop's ${name} did not start (stalled ${CLIENT_ATTEMPT_MS.length} times)`);
  }

  /** Runs a command inside the desktop (as its user unless asRoot). */
  run(command: string[], options: Omit<RunOptions, "marker">): Promise<RunResult> {
    return runInside(this.pid1, command, { ...options, marker: this.dir });
  }

  /** Runs a command inside the desktop, handing its output over as it comes (the exec stream). */
  supervise(command: string[], options: Omit<SuperviseOptions, "marker">): Promise<SupervisedExit> {
    return superviseInside(this.pid1, command, { ...options, marker: this.dir });
  }

  /** Closes every window politely (WM_DELETE_WINDOW) so apps flush their state; waits until they are gone. */
  async closeApps(timeoutMs: number): Promise<void> {
    const script = `
for w in $(wmctrl -l | awk '{print $1}'); do wmctrl -ic "$w"; done
i=0; while [ -n "$(wmctrl -l)" ] && [ $i -lt ${Math.ceil(timeoutMs / 50)} ]; do sleep 0.05; i=$((i + 1)); done`;
    await this.run(["sh", "-c", script], { timeoutMs: timeoutMs + 2000 }).catch(() => {});
  }

  /** Ends every process of the desktop (the namespace's init first). Idempotent. */
  async kill(): Promise<void> {
    this.stopping = true;
    await killSandbox(this.sandbox);
    for (const app of this.apps) killGroup(app);
  }

  async removeFiles(): Promise<void> {
    await rm(/* turbopackIgnore: true */ this.dir, { recursive: true, force: true });
  }

  resources(): Record<string, number> {
    const alive = (child: ChildProcess) => (child.exitCode === null && child.signalCode === null ? 1 : 0);
    return { desktop_processes: this.apps.length + alive(this.sandbox.launcher) + alive(this.sandbox.network.slirp) };
  }
}
