// Process-wide start-up and shutdown. `boot()` runs once per process (from
// instrumentation.ts); domains register their background work here and their
// cleanup with `onShutdown`. server.ts calls the shutdown on SIGTERM/SIGINT
// through a handle on globalThis, because it lives outside Next's bundle.
import { getLogger } from "@/lib/logger";

type Hook = () => Promise<void> | void;

interface BootState {
  booted: Promise<void> | null;
  shutdownHooks: { name: string; fn: Hook }[];
  shuttingDown: Promise<void> | null;
}

const g = globalThis as unknown as { cabinBoot?: BootState; cabinShutdown?: (reason: string) => Promise<void> };
const state: BootState = (g.cabinBoot ??= { booted: null, shutdownHooks: [], shuttingDown: null });

const SHUTDOWN_HOOK_TIMEOUT_MS = 20_000;

/** Registers cleanup run at shutdown, in reverse order of registration. */
export function onShutdown(name: string, fn: Hook) {
  state.shutdownHooks.push({ name, fn });
}

export function isShuttingDown(): boolean {
  return state.shuttingDown !== null;
}

export function shutdown(reason: string): Promise<void> {
  state.shuttingDown ??= (async () => {
    const log = getLogger();
    log.info({ reason }, "shutting down");
    for (const { name, fn } of [...state.shutdownHooks].reverse()) {
      const started = Date.now();
      try {
        await Promise.race([
          Promise.resolve().then(fn),
          new Promise((_, reject) => setTimeout(() => reject(new Error("timed out")), SHUTDOWN_HOOK_TIMEOUT_MS).unref()),
        ]);
        log.info({ hook: name, ms: Date.now() - started }, "shutdown hook done");
      } catch (err) {
        log.error({ hook: name, err }, "shutdown hook failed");
      }
    }
  })();
  return state.shuttingDown;
}

/** Starts every domain's background work once. Failures are logged, not fatal: health reports them. */
export function boot(): Promise<void> {
  state.booted ??= (async () => {
    const log = getLogger();
    g.cabinShutdown = shutdown;
    const starters: [string, () => Promise<unknown>][] = [
      // Domains add their start-up here: ["name", () => import("@/lib/x/start").then((m) => m.start())]
      ["api key cache", () => import("@/lib/auth/api-key-cache").then((m) => m.startApiKeyCache())],
      ["computers", () => import("@/lib/computers/start").then((m) => m.startComputers())],
      ["models", () => import("@/lib/models/start").then((m) => m.start())],
      ["first-run notice", () => import("@/lib/auth/first-run").then((m) => m.announceFirstRun())],
    ];
    for (const [name, start] of starters) {
      try {
        await start();
      } catch (err) {
        log.error({ err, part: name }, "start-up of a part failed");
      }
    }
    log.info("cabin booted");
  })();
  return state.booted;
}
