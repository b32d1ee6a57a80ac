// Real servers for API tests: `server.ts` from the production build (or, with
// `dev: true`, Next's development server, as `npm start -- --dev` runs it), on
// a free loopback port, with its own data directory and a fresh database
// (SQLite, or a new PostgreSQL database when CABIN_TEST_DATABASE_URL is set).
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer } from "node:net";
import { SERVER_NODE_ARGS } from "../../scripts/server-command.mjs";
import { staleBuild } from "../../scripts/setup/build-inputs.mjs";
import { dropDatabase, freshDatabase } from "./test-databases";

const root = path.resolve(import.meta.dirname, "../..");
const READY_TIMEOUT_MS = 90_000;
// Development compiles each route on its first request: slow on a small, shared machine.
const DEV_READY_TIMEOUT_MS = 600_000;

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  process: ChildProcess;
  logFile: string;
  /** SIGTERM and wait: a clean shutdown. */
  stop(): Promise<void>;
  /** Sends a signal (SIGKILL by default) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts again on the same port, data directory and database (stopping the process first if it still runs). */
  restart(): Promise<TestServer>;
  /** Removes the data directory (and PostgreSQL database) once stopped. */
  destroy(): Promise<void>;
}

export interface StartOptions {
  /** Settings for the server; `undefined` unsets one the harness would set (a real install's default). */
  env?: Record<string, string | undefined>;
  dataDir?: string;
  databaseUrl?: string;
  port?: number;
  /** Next's development server (compiles on demand, no production build needed) instead of the build. */
  dev?: boolean;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function nodeTsx(args: string[], env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, ["--import", "tsx", ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
}

function runToEnd(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = nodeTsx(args, env);
    let out = "";
    let err = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (err += d));
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")} failed: ${err || out}`)),
    );
  });
}

/** The CABIN_SECRET every test server on PostgreSQL shares, as the nodes of a cluster must. */
export const POSTGRES_CLUSTER_SECRET = "test-cluster-secret-0123456789abcdef";

function baseEnv(o: {
  port: number;
  dataDir: string;
  databaseUrl: string;
  env: Record<string, string | undefined>;
  dev?: boolean;
}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: process.env.LANG ?? "C.UTF-8",
    NODE_ENV: o.dev ? "development" : "production",
    NEXT_TELEMETRY_DISABLED: "1",
    HOST: "127.0.0.1",
    PORT: String(o.port),
    PUBLIC_URL: `http://127.0.0.1:${o.port}`,
    DATA_DIR: o.dataDir,
    DATABASE_URL: o.databaseUrl,
    LOG_LEVEL: "warn",
    // Tests sign up many users from one address; the limit itself is Better Auth's.
    AUTH_RATE_LIMIT_PER_MINUTE: "0",
    // Test pages are served on loopback, which the egress policy refuses by default; the server's
    // own port stays refused even so (EgressPolicy), and the egress suites override this.
    SESSION_EGRESS_ALLOW: "127.0.0.0/8",
    // The suites share one organization and create hundreds of sessions; quotas.test.ts sets its own.
    ORG_MAX_BROWSER_SESSIONS: "1000",
    // The soak suite keeps up to 8 desktops alive in one organization (the default is a quarter of
    // DESKTOP_MAX_SESSIONS).
    ORG_MAX_DESKTOP_SESSIONS: "8",
    // No warm desktop unless a suite asks (desktop-standby, soak): the desktop suites count desktop processes and
    // folders.
    DESKTOP_STANDBY: "0",
    ORG_SESSION_CREATES_PER_MINUTE: "0",
    // The suites sign up many users and organizations; a real install's default (SIGNUP=invite) has its own tests.
    SIGNUP: "open",
    // On PostgreSQL each server is a node of one cluster (docs/cluster.md): its own id, the secret they share.
    ...(o.databaseUrl.startsWith("postgres")
      ? { HOST_ID: `node-${o.port}`, CABIN_SECRET: POSTGRES_CLUSTER_SECRET }
      : {}),
    ...o.env,
  };
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited (${child.exitCode}) before it was ready:\n${tail(logFile)}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200 || res.status === 503) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready after ${timeoutMs} ms:\n${tail(logFile)}`);
}

function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-40).join("\n") : "(no log)";
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  if (!options.dev) {
    if (!existsSync(path.join(root, ".next", "BUILD_ID")))
      throw new Error("No production build: run `npm test` (which builds) or `npm run build` first");
    // The route handlers run from .next: on a stale build a test would silently run old code.
    const stale = staleBuild(root);
    if (stale)
      throw new Error(`Stale production build: ${stale}. Run \`npm run build\` (or \`npm test\`, which builds) first`);
  }
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "cabin-test-"));
  // Migrated already: a copy of the template (test-databases.ts), or the database of a server started before.
  const databaseUrl = options.databaseUrl ?? (await freshDatabase(dataDir));
  const port = options.port ?? (await freePort());
  const env = baseEnv({ port, dataDir, databaseUrl, env: options.env ?? {}, dev: options.dev });

  const logFile = path.join(dataDir, `server-${port}.log`);
  const log = createWriteStream(logFile, { flags: "a" });
  const child = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(url, child, logFile, options.dev ? DEV_READY_TIMEOUT_MS : READY_TIMEOUT_MS);

  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const server: TestServer = {
    url,
    port,
    dataDir,
    databaseUrl,
    process: child,
    logFile,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
      await exited;
      clearTimeout(timer);
    },
    async kill(signal = "SIGKILL") {
      if (child.exitCode !== null) return;
      child.kill(signal);
      await exited;
    },
    // A process still running is stopped first: a new one would find its port taken, and readiness polled on
    // that port would be answered by the old process (and the old one would outlive the test).
    restart: async () => {
      await server.stop();
      return startServer({ ...options, dataDir, databaseUrl, port });
    },
    async destroy() {
      await server.stop();
      await dropDatabase(databaseUrl).catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** A new organization with one API key, made with the operator CLI against the server's database. */
export async function createOrgKey(
  server: Pick<TestServer, "databaseUrl" | "dataDir">,
  orgName: string,
): Promise<string> {
  const env = { ...baseEnv({ port: 0, dataDir: server.dataDir, databaseUrl: server.databaseUrl, env: {} }) };
  const org = JSON.parse(await runToEnd(["scripts/cli.ts", "org", "create", orgName, "--with-key", "--json"], env)) as {
    key: string;
  };
  return org.key;
}

/** Runs the operator CLI against a server's database; resolves with stdout. */
export function runCli(server: Pick<TestServer, "databaseUrl" | "dataDir">, args: string[]): Promise<string> {
  return runToEnd(
    ["scripts/cli.ts", ...args],
    baseEnv({ port: 0, dataDir: server.dataDir, databaseUrl: server.databaseUrl, env: {} }),
  );
}
