// The desktop implementation of ComputerDriver. Its state
// (the live desktops) is a process-wide singleton: one owner per process, even when
// Next loads this module from more than one bundle.
import { AppError } from "@/lib/api/errors";
import { ActionError } from "@/lib/computers/actions/action-error";
import type { ComputerDriver, ComputerEvents, ComputerHandle, StartSpec } from "@/lib/computers/driver";
import { DesktopComputer } from "@/lib/computers/desktop/desktop-computer";
import { DesktopRunner } from "@/lib/computers/desktop/desktop-runner";
import { DesktopReservation, DesktopStandby, type StandbyDesktop } from "@/lib/computers/desktop/desktop-standby";
import {
  availability,
  type Availability,
  cleanOrphans,
  markedProcesses,
  sessionDirCount,
  sessionsRoot,
} from "@/lib/computers/desktop/host";
import { imageBuildInProgress, imageVersion } from "@/lib/computers/desktop/image";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { singleton, singletonKey } from "@/lib/singleton";

interface DriverState {
  live: Map<string, DesktopComputer>;
  starting: number;
  lastStartError: string | null;
  /** Warm desktops a create adopts (DESKTOP_STANDBY). */
  standby: DesktopStandby;
}

const state = singleton(
  singletonKey<DriverState>("desktopDriverState"),
  (): DriverState => ({
    live: new Map(),
    starting: 0,
    lastStartError: null,
    standby: new DesktopStandby({
      inUse: () => state.live.size + state.starting,
      image: () => {
        const available = availability();
        return available.ok ? available.image : null;
      },
      sessionsRoot,
    }),
  }),
);

/** A standby desktop becomes session `spec.id`'s: nothing starts, so the create takes no start slot. */
function adopt(spec: StartSpec, events: ComputerEvents, desktop: StandbyDesktop): ComputerHandle {
  let stopped = false;
  desktop.runner.handOver((detail) => {
    if (!stopped) events.onExit(detail);
  });
  const computer = new DesktopComputer(spec.id, desktop.runner, desktop.version, spec.viewport, () => {
    stopped = true;
    state.live.delete(spec.id);
    state.standby.refill();
  });
  state.live.set(spec.id, computer);
  getLogger().info({ id: spec.id, standby: desktop.runner.id }, "desktop ready (from standby)");
  return computer;
}

/**
 * A snapshot only fits the base image it was taken on (its upper layer is a diff
 * against that image): a conflict (409) naming environment_id.
 */
function assertRestorable(spec: Pick<StartSpec, "restore">, version: string) {
  const saved = spec.restore;
  if (!saved) return;
  if (saved.kind !== "desktop" || saved.baseVersion !== version) {
    throw new ActionError(
      "conflict",
      `environment_id: its snapshot was taken on desktop base image ${saved.baseVersion ?? "(unknown)"}, but ` +
        `this server runs ${version}; ` +
        "a snapshot only restores onto the image it was taken on (rebuild that image version or start a fresh desktop)",
      { param: "environment_id" },
    );
  }
}

/**
 * This host cannot run desktops: a 400 naming `kind` with the reason — or, while the
 * base image is being built (first start), a 503 with retry-after: waiting is enough.
 */
function unavailable(available: Extract<Availability, { ok: false }>): Error {
  if (available.retryAfterSeconds) {
    return new AppError("unavailable", `Desktop sessions are not ready yet: ${available.reason}`, {
      headers: { "retry-after": String(available.retryAfterSeconds) },
    });
  }
  return new ActionError("invalid", `desktop sessions are not available on this server: ${available.reason}`, {
    param: "kind",
  });
}

export const desktopDriver: ComputerDriver = {
  kind: "desktop",

  validate(spec) {
    const available = availability();
    if (!available.ok) throw unavailable(available);
    assertRestorable(spec, available.image.version);
  },

  reserveWarm(spec) {
    const available = availability();
    if (spec.restore || !available.ok) return null;
    const desktop = state.standby.take(spec.viewport, available.image.version);
    return desktop ? new DesktopReservation(state.standby, desktop) : null;
  },

  async start(spec: StartSpec, events: ComputerEvents): Promise<ComputerHandle> {
    const reserved = spec.warm instanceof DesktopReservation ? spec.warm.take() : undefined;
    if (reserved?.runner.alive) return adopt(spec, events, reserved);
    if (reserved) state.standby.giveBack(reserved); // died meanwhile: ended there
    const available = availability();
    if (!available.ok) throw unavailable(available);
    const { image } = available;
    const env = getEnv();
    if (state.live.size + state.starting >= env.DESKTOP_MAX_SESSIONS) {
      throw new Error(`this host already runs ${env.DESKTOP_MAX_SESSIONS} desktops (DESKTOP_MAX_SESSIONS)`);
    }
    if (state.live.size + state.starting + state.standby.count >= env.DESKTOP_MAX_SESSIONS) state.standby.makeRoom();
    state.starting++;
    let stopped = false;
    try {
      const runner = await DesktopRunner.start({
        id: spec.id,
        width: spec.viewport.width,
        height: spec.viewport.height,
        rootfs: image.rootfs,
        sessionsRoot: sessionsRoot(),
        restore: spec.restore?.data,
        deadline: Date.now() + env.DESKTOP_START_TIMEOUT_SECONDS * 1000,
        onExit: (detail) => {
          if (!stopped) events.onExit(detail);
        },
      });
      const computer = new DesktopComputer(spec.id, runner, image.version, spec.viewport, () => {
        stopped = true;
        state.live.delete(spec.id);
        state.standby.refill();
      });
      state.live.set(spec.id, computer);
      state.lastStartError = null;
      getLogger().info({ id: spec.id, restored: !!spec.restore, ...runner.timings }, "desktop ready");
      return computer;
    } catch (err) {
      state.lastStartError = (err as Error).message;
      throw err;
    } finally {
      state.starting--;
    }
  },

  async warm() {
    const available = availability();
    if (!available.ok) {
      getLogger().info({ reason: available.reason }, "desktop sessions unavailable");
      if (process.platform !== "linux" || process.getuid?.() !== 0) return;
    }
    try {
      const cleaned = await cleanOrphans();
      if (cleaned.processes || cleaned.dirs || cleaned.mounts)
        getLogger().warn(cleaned, "cleaned desktops left by a previous server process");
    } catch (err) {
      getLogger().error({ err }, "could not clean leftover desktops");
    }
    // In the background (the start queue's background lane): boot does not wait for it.
    if (available.ok) state.standby.refill();
  },

  async shutdown() {
    await Promise.all([...state.live.values()].map((c) => c.stop({ saveState: false }).catch(() => {})));
    await state.standby.stop();
  },

  health() {
    const available = availability();
    const onLinuxAsRoot = process.platform === "linux" && process.getuid?.() === 0;
    return {
      ok: available.ok,
      ...(available.ok ? {} : { message: available.reason }),
      ...(!available.ok && available.retryAfterSeconds ? { image_build: imageBuildInProgress() } : {}),
      ...(state.lastStartError ? { last_start_error: state.lastStartError } : {}),
      image_version: imageVersion(),
      live_desktops: state.live.size,
      standby_desktops: state.standby.size,
      standby_desktop_target: available.ok ? state.standby.target() : 0,
      desktop_processes: onLinuxAsRoot ? markedProcesses().length : 0,
      session_dirs: sessionDirCount(),
    };
  },
};
