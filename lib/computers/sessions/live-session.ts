// A session this process runs, as the SessionManager keeps it: its deadlines
// in memory, its computer once started, and its live view. What ends with it
// subscribes to the manager's `ends` (SessionEndBus).
import type { CreateOptions } from "@/lib/computers/sessions/create-options";
import type { ComputerHandle, ComputerKind, ProxyConfig, SavedState, WarmReservation } from "@/lib/computers/driver";
import type { ScreencastHub } from "@/lib/computers/live/hub";

export interface LiveSession {
  id: string;
  organizationId: string;
  kind: ComputerKind;
  /** Save state at the end and periodically (persistent: true). */
  persistent: boolean;
  /** The profile it saves into at the end and periodically (profile.save_changes), by row id. */
  profileId: string | null;
  autoKill: boolean;
  inactivityTimeoutSeconds: number;
  expiresAt: Date;
  idleExpiresAt: Date;
  handle: ComputerHandle | null;
  started: Promise<ComputerHandle>;
  /** The whole end: row terminated, state saved, computer released. */
  ending: Promise<void> | null;
  /** The first part of `ending`: the row is terminated (what a DELETE answers after). */
  rowEnded: Promise<void> | null;
  nextSaveAt: number;
  saving: Promise<void> | null;
  savedDigest: string | null;
  /** The shared live-view capture, made by the first viewer (`ScreencastHub`); ended with the session. */
  liveView?: ScreencastHub;
}

export interface StartInput {
  /** The session's id when chosen ahead (a profile's writer hold names it before the start). */
  id?: string;
  profileId?: string | null;
  organizationId: string;
  apiKeyId: string | null;
  createdByUserId?: string | null;
  options: CreateOptions;
  restore?: SavedState;
  proxy?: ProxyConfig;
  /** A computer started ahead for this create (ComputerDriver.reserveWarm); the caller releases it. */
  warm?: WarmReservation;
}

/** A session about to start: its deadlines from `deadlines`, its `started` promise settled by the caller. */
export function newLiveSession(
  id: string,
  input: StartInput,
  deadlines: { expiresAt: Date; idleExpiresAt: Date },
  saveIntervalMs: number,
): { live: LiveSession; resolveStarted: (h: ComputerHandle) => void; rejectStarted: (e: unknown) => void } {
  const { options } = input;
  let resolveStarted!: (h: ComputerHandle) => void;
  let rejectStarted!: (e: unknown) => void;
  const started = new Promise<ComputerHandle>(
    (resolve, reject) => ((resolveStarted = resolve), (rejectStarted = reject)),
  );
  started.catch(() => {}); // observed by the tear-down only when a termination races the start
  const live: LiveSession = {
    id,
    organizationId: input.organizationId,
    kind: options.kind,
    persistent: options.persistent,
    profileId: input.profileId ?? null,
    autoKill: options.autoKill,
    inactivityTimeoutSeconds: options.inactivityTimeoutSeconds,
    expiresAt: deadlines.expiresAt,
    idleExpiresAt: deadlines.idleExpiresAt,
    handle: null,
    started,
    ending: null,
    rowEnded: null,
    nextSaveAt: Date.now() + saveIntervalMs,
    saving: null,
    savedDigest: null,
  };
  return { live, resolveStarted, rejectStarted };
}
