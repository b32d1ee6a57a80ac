// The SessionManager: the one owner of every running computer in this process,
// whatever its kind. It starts computers through their driver, keeps their
// deadlines in memory (the reaper checks them every REAPER_TICK_MS), saves the
// state of persistent sessions periodically and at the end, and writes every
// lifecycle change to the database. Drivers (ComputerDriver) know
// nothing of rows, deadlines or persistence.
//
// Errors thrown here are AppErrors (unavailable: shutting down, no driver, a
// start that failed) or a driver's ActionError refusing the request; callers
// translate them with `asAppError`/`asActionResult`.
import { AppError } from "@/lib/api/errors";
import { isActionError } from "@/lib/computers/actions/action-error";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { countSessionEnded } from "@/lib/metrics/registry";
import { HEARTBEAT_EVERY_MS, HostHeartbeat } from "@/lib/computers/sessions/host-heartbeat";
import type { ComputerDriver, ComputerHandle, ComputerKind } from "@/lib/computers/driver";
import { firstLine, scrubSecrets } from "@/lib/computers/actions/failures";
import {
  dueReason,
  initialDeadlines,
  idleDeadlineAfter,
  type TerminationReason,
} from "@/lib/computers/sessions/lifecycle";
import { QuotaGate } from "@/lib/computers/sessions/quotas";
import { organizationQuotas } from "@/lib/computers/sessions/quotas-store";
import { SharedQuotaTurns } from "@/lib/computers/sessions/quotas-shared";
import { sweepScreenshots } from "@/lib/computers/screenshots/screenshots";
import { keepFinalScreenshotOf } from "@/lib/computers/screenshots/final-screenshot";
import { SessionEndBus } from "@/lib/computers/sessions/session-end";
import { nodeStartAdmission } from "@/lib/computers/sessions/start-admission";
import { SessionEvents } from "@/lib/computers/events/session-events";
import { endAndKeepTimeline } from "@/lib/computers/events/kept-timelines";
import { endInOrder, saveIfChanged } from "@/lib/computers/sessions/session-teardown";
import * as store from "@/lib/computers/sessions/store";
import { type LiveSession, newLiveSession, type StartInput } from "@/lib/computers/sessions/live-session";

export type { LiveSession, StartInput };

const REAPER_TICK_MS = 500;
const SWEEP_EVERY_MS = 60_000;

export class SessionManager {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly drivers = new Map<ComputerKind, ComputerDriver>();
  private timer: NodeJS.Timeout | null = null;
  private lastSweep = Date.now();
  private shuttingDown = false;
  private readonly heartbeat = new HostHeartbeat();
  private readonly quotaGate = new QuotaGate();
  private readonly quotaTurns = new SharedQuotaTurns();
  /**
   * This node's start queue; `createComputer` (lib/computers/service.ts) runs every `start` through it, the standby
   * refills in its background lane.
   */
  readonly admission = nodeStartAdmission();
  /** Subscribers of GET /computers/{id}/events; told first when a session ends (`ends`). */
  readonly events = new SessionEvents();
  /** The one end-of-session event (`SessionEnded`), published by `terminate` before the tear-down. */
  readonly ends = new SessionEndBus();

  constructor() {
    this.ends.subscribe("events", endAndKeepTimeline(this.events));
    this.ends.subscribe("final_screenshot", keepFinalScreenshotOf(this.sessions));
    // Viewers learn the reason; their capture stops before the computer does.
    this.ends.subscribe("live_view", (ended) => this.sessions.get(ended.sessionId)?.liveView?.end(ended.reason));
    this.ends.subscribe("usage", (ended) => countSessionEnded(ended.kind, ended.reason));
  }

  get hostId(): string {
    return getEnv().HOST_ID;
  }

  registerDriver(driver: ComputerDriver) {
    this.drivers.set(driver.kind, driver);
  }

  driverFor(kind: ComputerKind): ComputerDriver | undefined {
    return this.drivers.get(kind);
  }

  get(id: string): LiveSession | undefined {
    return this.sessions.get(id);
  }

  /** Sessions not ending; those whose row is terminated but whose tear-down runs on are `endingCount`. */
  get liveCount(): number {
    let ending = 0;
    for (const live of this.sessions.values()) if (live.ending) ending++;
    return this.sessions.size - ending;
  }

  get endingCount(): number {
    return this.sessions.size - this.liveCount;
  }

  /** Every session this process holds, ending ones included (quotas and /metrics count from it). */
  sessionsView(): Iterable<LiveSession> {
    return this.sessions.values();
  }

  /**
   * Inserts the row, starts the computer; on failure the row ends as provision_failed and
   * nothing is left running. A driver's refusal (an ActionError other than `failed`) is
   * rethrown as is; any other failure is a 503 provision_failed naming its cause.
   */
  async start(input: StartInput): Promise<store.ComputerRow> {
    const quotas = await organizationQuotas(input.organizationId);
    if (this.shuttingDown) throw new AppError("unavailable", "The server is shutting down; no new sessions");
    const { options } = input;
    const driver = this.drivers.get(options.kind);
    if (!driver) throw new AppError("unavailable", `No driver for ${options.kind} sessions`);
    const turn = await this.quotaTurns.turn(input.organizationId, this.hostId);
    // No await from here until startWith registers the session: the quota check and the
    // registration are one step, so two creates at quota − 1 cannot both pass.
    const admission = { organizationId: input.organizationId, kind: options.kind, quotas, elsewhere: turn.elsewhere };
    turn.admitting(() => this.quotaGate.admit({ sessions: this.sessions.values(), ...admission }));
    try {
      return await this.startWith(driver, input, turn.release);
    } catch (err) {
      if (isActionError(err) && err.reason !== "failed") throw err;
      getLogger().error({ err: scrubSecrets(String(err)) }, "session provisioning failed");
      const message = `Could not start the ${options.kind} session: ${scrubSecrets(firstLine(err))}`;
      throw new AppError("unavailable", message, { detail: "provision_failed" });
    }
  }

  /** `rowInserted` lets the organization's next create on this node read the counts (SharedQuotaTurns). */
  private async startWith(driver: ComputerDriver, input: StartInput, rowInserted: () => void) {
    const { options } = input;
    const id = input.id ?? store.newComputerId();
    const createdAt = new Date();
    const deadlines = initialDeadlines({ createdAt, ...options });
    const saveEveryMs = getEnv().STATE_SAVE_INTERVAL_SECONDS * 1000;
    const { live, resolveStarted, rejectStarted } = newLiveSession(id, input, deadlines, saveEveryMs);
    this.sessions.set(id, live);
    let row: store.ComputerRow;
    try {
      row = await store.insertComputer({
        id,
        organizationId: input.organizationId,
        apiKeyId: input.apiKeyId,
        createdByUserId: input.createdByUserId ?? null,
        hostId: this.hostId,
        options,
        createdAt,
        deadlines,
      });
    } catch (err) {
      this.sessions.delete(id);
      rejectStarted(err);
      throw err;
    } finally {
      rowInserted();
    }
    try {
      const handle = await driver.start(
        {
          id,
          organizationId: input.organizationId,
          viewport: options.display,
          stealth: options.stealth,
          proxy: input.proxy,
          restore: input.restore,
          warm: input.warm,
        },
        { onExit: (detail) => this.onExit(id, detail) },
      );
      live.handle = handle;
      resolveStarted(handle);
    } catch (err) {
      rejectStarted(err);
      this.sessions.delete(id);
      await store
        .markTerminated(id, "provision_failed")
        .catch((e) => getLogger().error({ err: e, id }, "could not mark a failed session"));
      throw err;
    }
    return row;
  }

  /** Activity: moves the idle deadline (memory and row) and ready → running; false when the row has ended. */
  async touch(live: LiveSession): Promise<boolean> {
    const at = new Date();
    const idleExpiresAt = idleDeadlineAfter(at, live.inactivityTimeoutSeconds, live.expiresAt);
    live.idleExpiresAt = idleExpiresAt;
    return store.recordActivity({ id: live.id, at, idleExpiresAt });
  }

  /**
   * Ends a session once, whoever asks. The row is terminated first, then `SessionEnded` is
   * published, then the computer is stopped (a persistent session's state saved before its
   * context closes): `endInOrder`. Resolves when
   * all of that is done, or with `until: "row"` as soon as the row is terminated: the
   * tear-down then goes on in the background (`tornDown` waits for it).
   */
  terminate(id: string, reason: TerminationReason, until: "row" | "teardown" = "teardown"): Promise<void> {
    const live = this.sessions.get(id);
    if (!live) return store.markTerminated(id, reason);
    if (!live.ending) {
      const handle = live.started.catch(() => null);
      // No handle: start() failed and records provision_failed itself.
      live.rowEnded = handle.then((h) => (h ? store.markTerminated(live.id, reason) : undefined));
      live.ending = this.end(live, reason, handle).finally(() => this.sessions.delete(live.id));
      live.ending.catch((err) => getLogger().error({ err, id }, "session tear-down failed"));
    }
    return until === "row" ? live.rowEnded! : live.ending;
  }

  /** Resolves when a session that is ending has released everything and saved its state (at once otherwise). */
  async tornDown(id: string): Promise<void> {
    await this.sessions.get(id)?.ending?.catch(() => {});
  }

  /** Resolves when the organization's persistent sessions that are ending have saved their state. */
  async statesSaved(organizationId: string): Promise<void> {
    const ending = [...this.sessions.values()].filter(
      (l) => l.organizationId === organizationId && l.persistent && l.ending,
    );
    await Promise.all(ending.map((l) => l.ending!.catch(() => {})));
  }

  isEnding(live: LiveSession): boolean {
    return live.ending !== null;
  }

  private onExit(id: string, detail: string) {
    getLogger().error({ id, detail }, "session computer died");
    void this.terminate(id, "crashed").catch((err) =>
      getLogger().error({ err, id }, "could not end a crashed session"),
    );
  }

  /** The end in its documented order: the row, then `SessionEnded` to every subscriber, then the tear-down. */
  private end(live: LiveSession, reason: TerminationReason, started: Promise<ComputerHandle | null>) {
    return endInOrder(live, reason, started, this.ends);
  }

  private tick() {
    const now = new Date();
    this.heartbeat.beat(now.getTime());
    for (const live of this.sessions.values()) {
      if (live.ending || !live.handle) continue;
      const reason = dueReason(live, now);
      if (reason) {
        void this.terminate(live.id, reason).catch((err) =>
          getLogger().error({ err, id: live.id }, "reaper could not end a session"),
        );
      } else if ((live.persistent || live.profileId) && !live.saving && now.getTime() >= live.nextSaveAt) {
        live.nextSaveAt = now.getTime() + getEnv().STATE_SAVE_INTERVAL_SECONDS * 1000;
        live.saving = saveIfChanged(live)
          .catch((err) => getLogger().warn({ err, id: live.id }, "periodic state save failed"))
          .finally(() => (live.saving = null));
      }
    }
    if (now.getTime() - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now.getTime();
      void this.sweep(now);
    }
  }

  /** Safety net: rows of this host that claim to be live but have no computer here. */
  private async sweep(now: Date) {
    try {
      await sweepScreenshots();
      const count = await store.terminateLeftovers({
        hostId: this.hostId,
        exceptIds: [...this.sessions.keys()],
        createdBefore: new Date(now.getTime() - SWEEP_EVERY_MS),
      });
      if (count) getLogger().warn({ count }, "marked live rows without a running computer as crashed");
    } catch (err) {
      getLogger().warn({ err }, "session sweep failed");
    }
  }

  /** Start-up: reconcile rows of a previous process, warm the drivers, start the reaper. */
  async boot(): Promise<void> {
    const bootedAt = new Date();
    const lastAlive = this.heartbeat.lastAlive();
    const count = await store.terminateLeftovers({
      hostId: this.hostId,
      createdBefore: bootedAt,
      diedBy: lastAlive ? { lastAlive, beatMs: HEARTBEAT_EVERY_MS } : undefined,
    });
    if (count) getLogger().warn({ count, hostId: this.hostId }, "sessions of a previous server process marked crashed");
    for (const driver of this.drivers.values()) await driver.warm();
    this.timer ??= setInterval(() => this.tick(), REAPER_TICK_MS);
    this.timer.unref();
  }

  /** SIGTERM/SIGINT: end every session (saving persistent state), then release the drivers. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.sessions.keys()].map((id) => this.terminate(id, "server_shutdown").catch(() => {})));
    for (const driver of this.drivers.values()) await driver.shutdown().catch(() => {});
  }
}
