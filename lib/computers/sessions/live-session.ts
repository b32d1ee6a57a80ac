// A session this process runs, as the SessionManager keeps it: its deadlines
// in memory, its computer once started, and its live view. What ends with it
// subscribes to the manager's `ends` (SessionEndBus).
import type { CreateOptions } from "@/lib/computers/sessions/create-options";
import type { ComputerHandle, ComputerKind, ProxyConfig, SavedState } from "@/lib/computers/driver";
import type { ScreencastHub } from "@/lib/computers/live/hub";

export interface LiveSession {
  id: string;
  organizationId: string;
  kind: ComputerKind;
  /** Save state at the end and periodically (persistent: true). */
  persistent: boolean;
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
  organizationId: string;
  apiKeyId: string | null;
  options: CreateOptions;
  restore?: SavedState;
  proxy?: ProxyConfig;
}
