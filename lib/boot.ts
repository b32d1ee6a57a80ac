// Process-wide start-up and shutdown. `boot()` runs once per process (from
// `register` in instrumentation). Each part's start function returns its stop
// hook (or null); boot keeps them and `shutdown` runs them in reverse order.
// Start modules never import this one: the dependency points one way only.
// The custom server reaches `shutdown` through `shutdownKey`, because it lives
// outside Next's bundle.
import { getLogger } from "@/lib/logger";
import { shutdownKey } from "@/lib/process-handles";
import { setSingleton, singleton, singletonKey } from "@/lib/singleton";

/** What a start function hands back: how to stop what it started, or null when nothing needs stopping. */
export type StopHook = () => Promise<void>;
type Starter = [name: string, start: () => Promise<StopHook | null>];

interface BootState {
  booted: Promise<void> | null;
  stopHooks: { name: string; stop: StopHook }[];
  shuttingDown: Promise<void> | null;
}

const bootStateKey = singletonKey<BootState>("boot");
const state = () => singleton(bootStateKey, () => ({ booted: null, stopHooks: [], shuttingDown: null }));

const STOP_HOOK_TIMEOUT_MS = 20_000;

/** Runs every registered stop hook once, newest first; each is bounded so one stuck part cannot hold the exit. */
export function shutdown(reason: string): Promise<void> {
  const s = state();
  s.shuttingDown ??= (async () => {
    const log = getLogger();
    log.info({ reason }, "shutting down");
    for (const { name, stop } of [...s.stopHooks].reverse()) {
      const started = Date.now();
      try {
        await Promise.race([
          Promise.resolve().then(stop),
          new Promise((_, reject) => setTimeout(() => reject(new Error("timed out")), STOP_HOOK_TIMEOUT_MS).unref()),
        ]);
        log.info({ hook: name, ms: Date.now() - started }, "shutdown hook done");
      } catch (err) {
        log.error({ hook: name, err }, "shutdown hook failed");
      }
    }
  })();
  return s.shuttingDown;
}

const starters: Starter[] = [
  // Before anything looks for processes or folders to reap: they are found by the data folder, which one server holds.
  ["data folder", () => import("@/lib/data-dir-lock").then((m) => m.startDataDirLock())],
  // Before the node starts: what it asks of sessions, tasks and logins, and what a node's death ends
  // (lib/cluster/ports.ts).
  [
    "cluster ports",
    () =>
      Promise.all([
        import("@/lib/computers/cluster-port"),
        import("@/lib/agent/cluster-port"),
        import("@/lib/auth/cluster-callers"),
      ]).then(([sessions, tasks, callers]) => {
        sessions.registerSessionsWithCluster();
        tasks.registerTasksWithCluster();
        callers.registerCallersWithCluster();
        return null;
      }),
  ],
  // Before the model service serves: it reads the sessions' screenshot links through this port
  // (lib/models/ports.ts), so neither product imports the other.
  [
    "own images",
    () =>
      Promise.all([import("@/lib/computers/screenshots"), import("@/lib/models/ports")]).then(([shots, models]) => {
        models.registerOwnImages(shots.ownScreenshotImages);
        return null;
      }),
  ],
  // First: a node that must not run (its id is live elsewhere) stops before its session recovery would end that node's
  // sessions.
  ["cluster node", () => import("@/lib/cluster/start").then((m) => m.startCluster())],
  ["api key cache", () => import("@/lib/auth/api-key-cache").then((m) => m.startApiKeyCache())],
  ["computers", () => import("@/lib/computers/start").then((m) => m.startComputers())],
  ["live view", () => import("@/lib/computers/live/start").then((m) => m.startLiveView())],
  ["models", () => import("@/lib/models/start").then((m) => m.start())],
  // After computers and models (its loops use both); so its stop hook runs before theirs.
  ["agent tasks", () => import("@/lib/agent/start").then((m) => m.startAgentTasks())],
  // Last: its stop hook runs first, so a stopping node takes no more creates while its sessions end.
  ["cluster drain", () => import("@/lib/cluster/start").then((m) => m.startDrainOnStop())],
  ["first-run notice", () => import("@/lib/auth/first-run").then((m) => m.announceFirstRun()).then(() => null)],
];

/** Starts every part's background work once. Failures are logged, not fatal: health reports them. */
export function boot(): Promise<void> {
  const s = state();
  s.booted ??= (async () => {
    const log = getLogger();
    setSingleton(shutdownKey, shutdown);
    for (const [name, start] of starters) {
      try {
        const stop = await start();
        if (stop) s.stopHooks.push({ name, stop });
      } catch (err) {
        log.error({ err, part: name }, "start-up of a part failed");
      }
    }
    log.info("cabin booted");
  })();
  return s.booted;
}
