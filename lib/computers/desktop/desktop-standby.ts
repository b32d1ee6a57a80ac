// Warm desktops (docs/desktops.md "Warm desktops"): DESKTOP_STANDBY fresh desktops at the
// default screen size, started ahead of demand so a create adopts one (ComputerDriver.reserveWarm)
// instead of waiting ~1.2 s for Xvfb, the window manager and a terminal. They are started in the
// background lane of the node's start queue (StartAdmission.runInBackground), so a refill never
// holds up a create, one at a time; they count against DESKTOP_MAX_SESSIONS (a cold create that
// needs their room ends one) and grow only while free memory stays above BROWSER_STANDBY_MIN_FREE_MB.
// A saved-state restore or another screen size starts cold. Ended with the driver (`stop`).
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { WarmReservation } from "@/lib/computers/driver";
import { DesktopRunner } from "@/lib/computers/desktop/desktop-runner";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { nodeStartAdmission } from "@/lib/computers/sessions/start-admission";

/** An idle desktop's PSS is 80–93 MiB (bench:desktop), with headroom. */
const PER_DESKTOP_BYTES = 150 * 1024 * 1024;
const RETRY_MS = 10_000;
/** The screen every standby desktop has: the create default (DEFAULT_DISPLAY). */
export const STANDBY_SIZE = { width: 1280, height: 720 };

export interface StandbyDesktop {
  runner: DesktopRunner;
  /** The base image it runs. */
  version: string;
}

export interface StandbyHost {
  /** Desktops running or starting for sessions (not the standby's). */
  inUse(): number;
  /** The base image and the start's deadline, or null when desktops cannot start now. */
  image(): { rootfs: string; version: string } | null;
  sessionsRoot(): string;
}

export class DesktopStandby {
  private ready: StandbyDesktop[] = [];
  private making: Promise<void> | null = null;
  private stopped = false;
  private retryAt = 0;

  constructor(private readonly host: StandbyHost) {}

  /** Ready and being made: the room they hold. */
  get count(): number {
    return this.ready.length + (this.making ? 1 : 0);
  }

  get size(): number {
    return this.ready.length;
  }

  /** How many to keep: DESKTOP_STANDBY, within DESKTOP_MAX_SESSIONS and free memory. */
  target(): number {
    const env = getEnv();
    const room = Math.max(0, env.DESKTOP_MAX_SESSIONS - this.host.inUse());
    const spare = Math.max(0, os.freemem() - env.BROWSER_STANDBY_MIN_FREE_MB * 1024 * 1024);
    const affordable = this.count + Math.floor(spare / PER_DESKTOP_BYTES);
    return Math.min(env.DESKTOP_STANDBY, room, affordable);
  }

  /** A ready desktop of this size and image, taken out of the standby (the refill starts behind it). */
  take(size: { width: number; height: number }, version: string): StandbyDesktop | undefined {
    if (size.width !== STANDBY_SIZE.width || size.height !== STANDBY_SIZE.height) return undefined;
    const at = this.ready.findIndex((d) => d.version === version && d.runner.alive);
    if (at < 0) return undefined;
    const [found] = this.ready.splice(at, 1);
    this.refill();
    return found;
  }

  /** A reserved desktop a create did not use: ready again, or ended. */
  giveBack(desktop: StandbyDesktop): void {
    if (!this.stopped && desktop.runner.alive && this.ready.length < this.target()) this.ready.push(desktop);
    else void end(desktop);
  }

  /** A cold start needs the room a standby desktop holds: the oldest ready one ends. */
  makeRoom(): void {
    const oldest = this.ready.shift();
    if (oldest) void end(oldest);
  }

  /** Starts one when below the target (one at a time); ends what is above it. */
  refill(): void {
    if (this.stopped) return;
    const target = this.target();
    while (this.ready.length > target) void end(this.ready.shift()!);
    if (this.making || this.count >= target || Date.now() < this.retryAt) return;
    const making = this.makeOne().finally(() => {
      if (this.making === making) this.making = null;
      this.refill();
    });
    this.making = making;
  }

  /** Ends every standby desktop, and waits for one being made. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.making;
    const ending = this.ready.splice(0);
    await Promise.all(ending.map(end));
  }

  private async makeOne(): Promise<void> {
    try {
      await nodeStartAdmission().runInBackground(async () => {
        const image = this.host.image();
        if (this.stopped || !image || this.count - 1 >= this.target()) return;
        const id = `standby-${randomBytes(6).toString("hex")}`;
        const entry: { desktop?: StandbyDesktop } = {};
        const runner = await DesktopRunner.start({
          id,
          ...STANDBY_SIZE,
          rootfs: image.rootfs,
          sessionsRoot: this.host.sessionsRoot(),
          deadline: Date.now() + getEnv().DESKTOP_START_TIMEOUT_SECONDS * 1000,
          // Until a session adopts it (DesktopRunner.handOver): a standby desktop that dies is replaced.
          onExit: (detail) => this.lost(entry.desktop, detail),
        });
        entry.desktop = { runner, version: image.version };
        if (this.stopped) return void (await end(entry.desktop));
        this.ready.push(entry.desktop);
      });
    } catch (err) {
      if (this.stopped) return;
      getLogger().warn({ err }, `could not start a standby desktop; retrying in ${RETRY_MS / 1000} s`);
      this.retryAt = Date.now() + RETRY_MS;
      setTimeout(() => this.refill(), RETRY_MS).unref();
    }
  }

  private lost(desktop: StandbyDesktop | undefined, detail: string) {
    if (!desktop || !this.ready.includes(desktop)) return;
    getLogger().warn({ detail }, "a standby desktop died; starting another");
    this.ready = this.ready.filter((d) => d !== desktop);
    void end(desktop).finally(() => this.refill());
  }
}

/** A standby desktop set aside for one create (ComputerDriver.reserveWarm). */
export class DesktopReservation implements WarmReservation {
  private settled = false;

  constructor(
    private readonly standby: DesktopStandby,
    private readonly desktop: StandbyDesktop,
  ) {}

  /** The start adopts it. */
  take(): StandbyDesktop | undefined {
    if (this.settled) return undefined;
    this.settled = true;
    return this.desktop;
  }

  release(): void {
    if (this.settled) return;
    this.settled = true;
    this.standby.giveBack(this.desktop);
  }
}

async function end(desktop: StandbyDesktop): Promise<void> {
  await desktop.runner.kill().catch(() => {});
  await desktop.runner.removeFiles().catch(() => {});
}
