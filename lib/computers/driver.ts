// The contract between the kind-neutral session lifecycle (lib/computers/manager.ts)
// and the code that actually runs a computer. Browser sessions (lib/computers/browser/)
// are the first implementation; desktop sessions (lib/computers/desktop/) implement
// the same interface. The manager owns lifetimes, idle reaping, persistence,
// reconciliation and the database; a driver owns processes and pixels only.
//
// Rules for implementers:
// - Never touch the database or throw AppError from a driver: throw ActionError
//   (lib/computers/action-error.ts) for failures a client should see, plain Errors
//   for everything else (the manager logs them and answers 500 / provision_failed).
// - `start` must either resolve with a fully usable handle or reject having released
//   everything it started (no half-made computers).
// - Call `events.onExit(reason)` once if the computer dies on its own (process crash,
//   browser disconnect). The manager then ends the session as `crashed`: it calls
//   `stop({saveState: false})` to release what is left (must not hang on a dead
//   computer) and keeps the last periodic snapshot as the saved state.
// - `stop` must be idempotent and must kill the whole process tree it started.
import type { Action } from "@/lib/computers/actions";

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
  viewport: Viewport;
  proxy?: ProxyConfig;
  stealth: boolean;
  /** restore: start from this saved state (environment_id). */
  restore?: SavedState;
}

export interface ComputerEvents {
  /** The computer died on its own; `detail` is for the log. */
  onExit(detail: string): void;
}

export interface PageContext {
  url: string;
  title: string;
  tab_id: string;
  is_main_tab: boolean;
  viewport_w: number;
  viewport_h: number;
}

/** What a successful action returns; the manager wraps it into an ActionResult. */
export interface ActionOutcome {
  result?: Record<string, unknown>;
  executedTabId?: string;
  pageContext?: PageContext;
}

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
  pageContext?: PageContext;
}

/** A running computer. Every method may be called concurrently with the others. */
export interface ComputerHandle {
  readonly id: string;
  readonly kind: ComputerKind;
  /** snapshot: current state without stopping (periodic saves). */
  snapshot(): Promise<SavedState>;
  /** stop: release everything; with saveState, return a final snapshot taken before teardown. */
  stop(options: { saveState: boolean }): Promise<SavedState | null>;
  /** act: one action of lib/computers/actions.ts; unsupported types throw ActionError("not_supported"). */
  act(action: Action): Promise<ActionOutcome>;
  screenshot(options: ScreenshotOptions): Promise<Screenshot>;
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
   * written; throw ActionError("invalid"), or an AppError for another status.
   */
  validate(spec: Omit<StartSpec, "id">): void;
  start(spec: StartSpec, events: ComputerEvents): Promise<ComputerHandle>;
  /** Boot: clean up leftovers of a previous process and warm up (must not throw). */
  warm(): Promise<void>;
  /** Process shutdown, after every handle was stopped. */
  shutdown(): Promise<void>;
  health(): DriverHealth;
}
