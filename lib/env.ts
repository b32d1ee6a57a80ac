// The only module that reads environment variables. Everything is validated
// once, at first use, and exported typed. Add a variable here (with its
// default and a comment) and document it in the README's configuration table.
import path from "node:path";
import { z } from "zod";
import { parseCidrList } from "@/lib/api/client-address";
import { parseEgressAllow } from "@/lib/computers/egress/policy";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  CI: bool.default(false),

  // ---- server ----
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  // Public address of the app (links, auth callbacks). Unset or empty: the address
  // each request came by (X-Forwarded-Proto/-Host or Host), localhost:PORT without one.
  PUBLIC_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url().optional()),
  // Largest request body any surface accepts (413 past it; counted as it arrives).
  MAX_REQUEST_BODY_BYTES: z.coerce.number().int().min(1024).default(32 * 1024 * 1024),
  // A client must send its headers within this, and its whole request (not the
  // answer: streams are not cut) within the request timeout, or the socket is closed.
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(15),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(60),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(1024)
    .describe("Sockets one client address may hold open at once; past it a new connection gets 429 and is closed (trusted proxies are exempt). Default 1024."),
  WEBSOCKETS_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(256)
    .describe("Upgrade requests and WebSockets (CDP, live view, VNC) one client address may hold at once (the forwarded address behind a trusted proxy); past it 429. Default 256."),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Where the SQLite file, generated secrets, saved states and model files live.
  DATA_DIR: z.string().default("data"),
  // Identifies this process's host in the computers table (one host by default).
  HOST_ID: z.string().min(1).default("local"),

  // ---- database ----
  // file:<path> (SQLite, default data/cabin.db) or postgresql://...
  DATABASE_URL: z.string().optional(),

  // ---- auth ----
  // Secret for login cookies and at-rest encryption. Generated into
  // DATA_DIR/secret on first start when unset.
  CABIN_SECRET: z.string().min(32).optional(),
  SIGNUP: z.enum(["open", "invite", "closed"]).default("invite")
    .describe("Who may create an account in the dashboard: open = anyone; invite = the first account (it owns the install), then only people with a pending invitation; closed = the first account only (then the operator's CLI). Default invite."),
  // Login/sign-up attempts allowed per client IP per minute (0 turns the limit off).
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(10),
  // Per-account backoff (keyed on account and client address, so an attacker's failures never
  // delay the owner elsewhere): this many failed sign-ins are free, then each further failure
  // doubles the wait from LOGIN_BACKOFF_BASE_SECONDS up to LOGIN_BACKOFF_MAX_SECONDS (429 meanwhile).
  LOGIN_BACKOFF_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_BACKOFF_BASE_SECONDS: z.coerce.number().int().min(1).default(1),
  LOGIN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).default(900),
  // Proxies whose X-Forwarded-For is believed (addresses or CIDRs, comma-separated,
  // e.g. "127.0.0.1,10.0.0.0/8"). Empty: the socket's address is the client's.
  TRUSTED_PROXIES: z.string().default("").superRefine((value, ctx) => {
    try {
      parseCidrList(value);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
    }
  }),
  // Bearer token for GET /metrics (Prometheus). Unset or empty: /metrics answers 404.
  METRICS_TOKEN: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional()),

  // ---- sessions (browser and desktop) ----
  // One action or screenshot of a session fails (status "error") after this long; the next one runs.
  // CDP endpoints for browser sessions: auto = on unless desktops run here (cdpEnabled).
  SESSION_CDP: z.enum(["auto", "on", "off"]).default("auto"),
  ACTION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // Where sessions may connect (EgressPolicy). default: everything but the host's loopback and
  // addresses, link-local/cloud metadata and Cabin itself; public-only: private ranges refused too
  // (recommended when Cabin faces the internet).
  SESSION_EGRESS: z.enum(["default", "public-only"]).default("default"),
  // Exceptions, comma-separated hosts, host:port pairs and CIDRs (e.g. "127.0.0.0/8,10.1.2.3:8080").
  // Cabin's own address stays refused unless an entry names that exact host:port.
  SESSION_EGRESS_ALLOW: z.string().default("").superRefine((value, ctx) => {
    try {
      parseEgressAllow(value);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
    }
  }),

  // ---- per-organization quotas (the operator overrides them per organization: npm run cli -- org quota) ----
  ORG_MAX_BROWSER_SESSIONS: z.coerce.number().int().min(1).default(16)
    .describe("Browser sessions one organization may run at once on this host (429 past it). Default 16."),
  ORG_MAX_DESKTOP_SESSIONS: z.coerce.number().int().min(1).optional()
    .describe("Desktops one organization may run at once on this host (429 past it). Default: a quarter of DESKTOP_MAX_SESSIONS (at least 1), so a few organizations never take every slot."),
  // Sessions (both kinds) one organization may create per minute; 0 turns the limit off.
  ORG_SESSION_CREATES_PER_MINUTE: z.coerce.number().int().min(0).default(600),

  // ---- browser sessions ----
  // Path to a Chromium/Chrome binary; otherwise Playwright's install, then the system chromium.
  CHROMIUM_PATH: z.string().optional(),
  // Plan maximum session lifetime, the default for timeout_seconds.
  PLAN_MAX_LIFETIME_SECONDS: z.coerce.number().int().min(10).default(3600),
  // Upstream for use_advanced_proxy: http://user:pass@host:port
  ADVANCED_PROXY_URL: z.url().optional(),
  // Key for saved session state (AES-256-GCM via HKDF); default: derived from the app secret.
  STATE_ENCRYPTION_KEY: z.string().min(32).optional(),
  // Persistent sessions also save their state this often while running (a crash loses at most this).
  STATE_SAVE_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(30),
  // Saved states larger than this go to files under DATA_DIR/states instead of the database.
  STATE_INLINE_MAX_BYTES: z.coerce.number().int().min(0).default(1_048_576),
  // Pre-made contexts (with a blank tab) kept ready so creating a session skips the ~250 ms first page.
  // The floor: standby grows above it with demand (the busiest second of the last minute).
  BROWSER_STANDBY_CONTEXTS: z.coerce.number().int().min(0).max(32).default(2),
  // The ceiling of demand-sized standby (~63 MiB each).
  BROWSER_STANDBY_MAX_CONTEXTS: z.coerce.number().int().min(0).max(64).default(20),
  // Standby contexts made at once in the background (each first page is a renderer process start).
  BROWSER_STANDBY_REFILL_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  // Standby stops growing above the floor when free memory would drop below this.
  BROWSER_STANDBY_MIN_FREE_MB: z.coerce.number().int().min(0).default(1024),
  BROWSER_MAX_TABS_PER_SESSION: z.coerce.number().int().min(1).max(500).default(20)
    .describe("Tabs one browser session may have open (each is a renderer); opening one more is a 409, and a popup past it is closed. Default 20."),
  // Sessions per Chromium process before another process is started.
  BROWSER_MAX_CONTEXTS_PER_PROCESS: z.coerce.number().int().min(1).default(100),
  // A Chromium process is replaced after this many sessions (it ends when its last session does).
  BROWSER_RECYCLE_AFTER_CONTEXTS: z.coerce.number().int().min(1).default(1000),
  // Each organization's sessions run in a Chromium of its own, closed this long after its last session ends.
  BROWSER_ORG_IDLE_SECONDS: z.coerce.number().min(0).max(86_400).default(30),
  // auto: Chromium runs with its own sandbox, as BROWSER_USER when the server is root (created when missing);
  // off: --no-sandbox (hosts without user namespaces). auto falls back to off, logged, when the sandbox cannot start.
  BROWSER_SANDBOX: z.enum(["auto", "off"]).default("auto"),
  BROWSER_USER: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, "a system user name").default("cabin-browser"),

  // ---- desktop sessions ----
  // Offer kind "desktop" (Linux, root, and a built base image are needed too).
  DESKTOP_ENABLED: bool.default(true),
  // Where `npm run desktop:image` puts versioned base images; default ~/.cache/cabin/desktop-images
  // (outside the project: a Debian tree inside it stalls `next build`).
  DESKTOP_IMAGES_DIR: z.string().optional(),
  // Debian mirror the base image is built from (the session's apt uses it too).
  DESKTOP_IMAGE_MIRROR: z.url().default("http://deb.debian.org/debian"),
  // Desktops running at once on this host (an idle one takes ~50 MiB PSS, plus its apps).
  DESKTOP_MAX_SESSIONS: z.coerce.number().int().min(1).default(16),
  // Give up starting a desktop (after retries of stalled X clients) after this long.
  DESKTOP_START_TIMEOUT_SECONDS: z.coerce.number().int().min(5).default(60),
  // exec/sync keeps at most this much of stdout and of stderr (the rest is dropped and marked).
  DESKTOP_EXEC_MAX_OUTPUT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),

  // ---- model API ----
  // The provider prefix of model ids (svc.sm-1, svc.cua-fast).
  MODEL_PREFIX: z.string().regex(/^[a-z0-9-]+$/).default("svc"),
  // JSON map of model id -> backend settings (parsed by `parseModelsConfig`). Unset: the two
  // default ids run locally on a generated placeholder model.
  MODELS: z.string().optional(),
  // CPU threads per local model (1 is fastest on small shared machines).
  MODEL_THREADS: z.coerce.number().int().min(1).max(256).default(1),
  // Context size (tokens) of local models unless MODELS sets one.
  MODEL_CONTEXT_SIZE: z.coerce.number().int().min(128).default(2048),
  // Requests a local model runs at once (llama.cpp sequences).
  MODEL_PARALLEL: z.coerce.number().int().min(1).max(64).default(1),
  // Requests that may wait per local model before new ones get 429.
  MODEL_QUEUE_SIZE: z.coerce.number().int().min(0).default(64),
  // Per-organization limits on /v1 inference; 0 turns a limit off.
  MODEL_RATE_LIMIT_RPM: z.coerce.number().int().min(0).default(3000),
  MODEL_RATE_LIMIT_TPM: z.coerce.number().int().min(0).default(2_000_000),
  // Per-API-key limits on /v1 inference, on top of the organization's; 0 (default) = only the organization's.
  MODEL_KEY_RATE_LIMIT_RPM: z.coerce.number().int().min(0).default(0),
  MODEL_KEY_RATE_LIMIT_TPM: z.coerce.number().int().min(0).default(0),
  // Upstream (openai-compatible) wait for response headers and between stream chunks.
  MODEL_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  // Load local models at start-up instead of on the first request.
  MODEL_WARMUP: bool.default(true),
  // A model backend failing this many times in a row (timeout, connection error, 5xx, 429) is cooled down; 0 = never.
  MODEL_COOLDOWN_FAILURES: z.coerce.number().int().min(0).default(3),
  // How long a cooled-down backend is skipped (while a later backend of its model remains to try).
  MODEL_COOLDOWN_SECONDS: z.coerce.number().min(0).default(30),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Validated environment; throws one readable error naming every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export function getEnv(): Env {
  cached ??= loadEnv();
  return cached;
}

/** Absolute data directory. */
export function dataDir(env: Env = getEnv()): string {
  return path.resolve(env.DATA_DIR);
}

export function databaseUrl(env: Env = getEnv()): string {
  return env.DATABASE_URL ?? `file:${path.join(dataDir(env), "cabin.db")}`;
}

/** The few variables a child process of ours needs (locale, time zone, paths), without the server's secrets. */
export function childProcessEnvironment(source: Record<string, string | undefined> = process.env): Record<string, string> {
  const keep = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "FONTCONFIG_PATH"];
  return Object.fromEntries(keep.flatMap((k) => (source[k] ? [[k, source[k]]] : [])));
}
