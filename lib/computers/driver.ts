// The contract between the kind-neutral session lifecycle (lib/computers/sessions/manager.ts)
// and the code that actually runs a computer. Browser sessions (lib/computers/browser/)
// are the first implementation; desktop sessions (lib/computers/desktop/) implement
// the same interface. The manager owns lifetimes, idle reaping, persistence,
// reconciliation and the database; a driver owns processes and pixels only.
//
// Rules for implementers:
// - Never touch the database or throw AppError from a driver: throw ActionError
//   (lib/computers/actions/action-error.ts) for failures a client should see, plain Errors
//   for everything else (the manager logs them and answers 500 / provision_failed).
//   lib/computers/actions/failures.ts is the one translation of both for clients.
// - Run `act` and `screenshot` through one ActionQueue (lib/computers/actions/action-queue.ts):
//   one at a time per computer, each bounded by ACTION_TIMEOUT_SECONDS.
// - What only some kinds can do is an optional capability on the handle (`exec`,
//   `screencast`, `liveInput`);
//   callers check for it, never probe an object.
// - `start` must either resolve with a fully usable handle or reject having released
//   everything it started (no half-made computers).
// - Call `events.onExit(reason)` once if the computer dies on its own (process crash,
//   browser disconnect). The manager then ends the session as `crashed`: it calls
//   `stop({saveState: false})` to release what is left (must not hang on a dead
//   computer) and keeps the last periodic snapshot as the saved state.
// - `stop` must be idempotent and must kill the whole process tree it started.
import type { Action, ActionType } from "@/lib/computers/actions/actions";
import type { FillLoginAction } from "@/lib/computers/actions/fill-credentials";

export type ComputerKind = "browser" | "desktop";

export interface Viewport {
  width: number;
  height: number;
  /** Device scale factor (display.scale). */
  scale: number;
}

/** Upstream proxy for a session's traffic (credentials never leave the driver). */
export interface ProxyConfig {
  server: string;
  username?: string;
  password?: string;
}

/**
 * Saved state in the driver's own format. Browser: Playwright storage state JSON
 * (cookies, localStorage, IndexedDB). Desktop: a tar.zst of the overlay upper dir.
 * The state store encrypts and stores the bytes; it never looks inside.
 */
export interface SavedState {
  kind: ComputerKind;
  /** Version of what produced it (e.g. the desktop base image), checked on restore. */
  baseVersion?: string;
  data: Buffer;
}

export interface StartSpec {
  /** The session id (comp_…); use it to name processes, dirs and log lines. */
  id: string;
  /** Whose session: browsers of different organizations never share a Chromium process (BrowserPool). */
  organizationId: string;
  viewport: Viewport;
  proxy?: ProxyConfig;
  stealth: boolean;
  /** restore: start from this saved state (environment_id). */
  restore?: SavedState;
  /** A computer started ahead for this create (`ComputerDriver.reserveWarm`): `start` adopts it. */
  warm?: WarmReservation;
}

/**
 * A computer started ahead of demand (a standby browser context, a standby desktop) and set
 * aside for one create. It was started already, so that create takes no start slot
 * (docs/cluster.md "Start admission"). `release` is called once the create is over either way:
 * it gives the computer back to the standby unless `start` adopted it.
 */
export interface WarmReservation {
  release(): void;
}

export interface ComputerEvents {
  /** The computer died on its own; `detail` is for the log. */
  onExit(detail: string): void;
}

/** What every kind of computer knows about its screen (the public SDK's page_context names). */
export interface ScreenContext {
  viewport_width: number;
  viewport_height: number;
  device_scale_factor: number;
}

/** A browser tab's page_context: every field of the public SDK's. */
export interface PageContext extends ScreenContext {
  url: string;
  title: string;
  tab_id: string;
  is_main_tab: boolean;
  /** Document size and scroll offset in CSS pixels; absent when the page did not answer in time. */
  page_width?: number;
  page_height?: number;
  scroll_x?: number;
  scroll_y?: number;
  /** @deprecated viewport_width; kept for one release for clients of the first API. */
  viewport_w: number;
  /** @deprecated viewport_height; kept for one release for clients of the first API. */
  viewport_h: number;
}

/** What a successful action returns; the action layer wraps it into an ActionResult. */
export interface ActionOutcome {
  result?: Record<string, unknown>;
  executedTabId?: string;
  pageContext?: PageContext | ScreenContext;
}

/** Actions the action layer does itself for every kind (`perform` in lib/computers/actions/action-service.ts). */
export type KindNeutralAction = Extract<ActionType, "wait" | "screenshot" | "debug" | "fill_credentials">;
/** What reaches a driver's `act`. */
export type DriverAction = Exclude<Action, { type: KindNeutralAction }> | FillLoginAction;
export type { FillLoginAction };

export interface ScreenshotOptions {
  format: "png" | "jpeg";
  /** JPEG quality 1–100. */
  quality?: number;
  tabId?: string;
}

export interface Screenshot {
  data: Buffer;
  mime: "image/png" | "image/jpeg";
  executedTabId?: string;
  pageContext?: PageContext | ScreenContext;
}

export interface ExecRequest {
  command: string;
  cwd?: string;
  /** Extra environment variables of the command (names checked by the caller). */
  env?: Record<string, string>;
  timeoutSeconds: number;
  maxOutputBytes: number;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exit_code: number;
  timed_out: boolean;
  truncated: boolean;
}

/** Where a streamed command's output goes, in the order it was produced. */
export interface ExecSink {
  onOutput(stream: "stdout" | "stderr", data: Buffer): void;
  /** Aborting kills the command's process group (the client went away). */
  signal: AbortSignal;
}

export interface ExecStreamEnd {
  /** -1 on timeout or an abnormal end (abort). */
  exitCode: number;
  timedOut: boolean;
  /** Output past maxOutputBytes (stdout and stderr together) was not passed to the sink. */
  truncated: boolean;
}

/** Runs shell commands inside the computer (desktops: as the desktop user). */
export interface ExecCapability {
  run(request: ExecRequest): Promise<ExecResult>;
  /** The same command, its output handed to `sink` as it comes (POST /computers/{id}/exec). */
  stream(request: ExecRequest, sink: ExecSink): Promise<ExecStreamEnd>;
}

/** Where a session's CDP relay connects (`CdpRelay` filters it to `contextId`). */
export interface CdpTarget {
  /** The DevTools browser WebSocket URL on loopback; never shown to clients. */
  browserUrl: string;
  /** The session's BrowserContext id in that browser. */
  contextId: string;
}

/** A DevTools endpoint for the session's own automation (browser sessions). */
export interface CdpCapability {
  target(): Promise<CdpTarget>;
}

/** One live-view frame: a JPEG of the screen (browser: the main tab's viewport, in CSS pixels). */
export interface ScreencastFrame {
  jpeg: Buffer;
  width: number;
  height: number;
  /** Capture time, ms since the epoch. */
  timestamp: number;
}

export interface ScreencastSettings {
  /** Frames per second wanted, 1–30 (the capture may deliver fewer when the screen does not change). */
  fps: number;
  /** JPEG quality 1–100. */
  quality: number;
}

export interface ScreencastSink {
  frame(frame: ScreencastFrame): void;
  /** Pointer position in frame pixels, when it moves (desktops). */
  cursor?(x: number, y: number): void;
}

/** Live-view frames: `start` begins one capture and resolves with its stop hook (idempotent). */
export interface ScreencastCapability {
  start(settings: ScreencastSettings, sink: ScreencastSink): Promise<() => Promise<void>>;
}

/** Live-view input (docs/contract.md "Streams"), coordinates in frame pixels, keys as `canonicalKey` reads them. */
export type LiveInput =
  | { type: "pointer"; action: "move" | "down" | "up"; x: number; y: number; button?: "left" | "middle" | "right" }
  | { type: "wheel"; x: number; y: number; dx: number; dy: number }
  | { type: "key"; action: "down" | "up"; key: string }
  | { type: "text"; text: string };

/** Applies a human's input from the live view, outside the action queue (input must not wait behind a slow action). */
export interface LiveInputCapability {
  send(input: LiveInput): Promise<void>;
}

/**
 * A VNC client's hold on the computer's RFB server (127.0.0.1:`port`, which also speaks WebSocket); `release` when it
 * leaves.
 */
export interface VncLease {
  port: number;
  release(): void;
}

/** An RFB server for the computer's screen, started for the first client and stopped after the last. */
export interface VncCapability {
  open(): Promise<VncLease>;
}

/** Session files inside the computer (docs/files.md "Desktops"): uploads written in, downloads collected. */
export interface FilesCapability {
  /** Writes a stored upload into the computer; resolves with its path there. */
  put(input: { name: string; folder: string[]; sourcePath: string }): Promise<string>;
  /** Records the files the computer saved as downloads since the last look. */
  collect(): Promise<void>;
}

/** A running computer. Every method may be called concurrently with the others. */
export interface ComputerHandle {
  readonly id: string;
  readonly kind: ComputerKind;
  /** snapshot: current state without stopping (periodic saves). */
  snapshot(): Promise<SavedState>;
  /** stop: release everything; with saveState, return a final snapshot taken before teardown. */
  stop(options: { saveState: boolean }): Promise<SavedState | null>;
  /** act: one action of lib/computers/actions/actions.ts; unsupported types throw ActionError("not_supported"). */
  act(action: DriverAction): Promise<ActionOutcome>;
  screenshot(options: ScreenshotOptions): Promise<Screenshot>;
  /** exec: present on kinds that run commands (desktop). */
  readonly exec?: ExecCapability;
  /** cdp: present on kinds that offer a DevTools endpoint (browser). */
  readonly cdp?: CdpCapability;
  /** screencast and liveInput: the live view (`ScreencastHub`); both kinds have them. */
  readonly screencast?: ScreencastCapability;
  readonly liveInput?: LiveInputCapability;
  /** vnc: the screen over RFB for noVNC (endpoints.vnc; desktops, when the host has x11vnc). */
  readonly vnc?: VncCapability;
  /** files: present on kinds whose programs see uploads as files (desktop). */
  readonly files?: FilesCapability;
  /** Resources held, for health and leak checks (contexts, pages, processes). */
  resources(): Record<string, number>;
}

export interface DriverHealth {
  ok: boolean;
  message?: string;
  [detail: string]: unknown;
}

export interface ComputerDriver {
  readonly kind: ComputerKind;
  /**
   * Kind-specific checks of a create request (restored state included) before any row is
   * written; throw ActionError "invalid" (400) or "conflict" (409).
   */
  validate(spec: Omit<StartSpec, "id" | "organizationId">): void;
  start(spec: StartSpec, events: ComputerEvents): Promise<ComputerHandle>;
  /**
   * A computer already started that fits `spec`, taken out of the standby for one create; null
   * when none is ready (the create then starts one, through the node's start queue).
   */
  reserveWarm?(spec: Omit<StartSpec, "id" | "warm">): WarmReservation | null;
  /** Boot: clean up leftovers of a previous process and warm up (must not throw). */
  warm(): Promise<void>;
  /** Process shutdown, after every handle was stopped. */
  shutdown(): Promise<void>;
  health(): DriverHealth;
}
