// The only module that reads environment variables. Everything is validated
// once, at first use, and exported typed. Add a variable to `envSchema` with its
// default and a `.describe()` text, then run `npm run docs:config`.
import path from "node:path";
import { z } from "zod";
import { parseAddressRanges } from "@/lib/ip-ranges";
import { parseEgressAllow } from "@/lib/egress-allow";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

/**
 * Every setting, with its default and a `.describe()` text (what it does, its unit):
 * `npm run docs:config` renders docs/configuration.md from this schema, and a unit
 * test fails when a setting lacks a description or the page is out of date.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development").describe("Set by the scripts: production for `npm start`, development for `npm run dev` (Next dev server, pretty logs)."),
  CI: bool.default(false).describe("Set by CI runners; accepted and validated, nothing in the server changes with it."),

  // ---- server ----
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe("TCP port the server listens on (0: any free port)."),
  HOST: z.string().default("0.0.0.0").describe("Address the server listens on (127.0.0.1 keeps it to this machine)."),
  PUBLIC_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url().optional()).describe(
    "Public address of the app (links, auth callbacks). Unset: the address each request came by (X-Forwarded-Proto/-Host or Host), localhost:PORT without one.",
  ),
  MAX_REQUEST_BODY_BYTES: z.coerce.number().int().min(1024).default(32 * 1024 * 1024).describe("Largest request body any surface accepts, in bytes (413 past it; counted as it arrives)."),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(15).describe("Seconds a client has to send its request headers before the socket is closed."),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(60).describe("Seconds a client has to send its whole request (not the answer: streams are not cut)."),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(1024).describe("Sockets one client address may hold open at once; past it a new connection gets 429 and is closed (trusted proxies are exempt)."),
  WEBSOCKETS_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(256).describe("Upgrade requests and WebSockets (CDP, live view, VNC) one client address may hold at once (the forwarded address behind a trusted proxy); past it 429."),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info").describe("Least severe log level written (pino)."),
  DATA_DIR: z.string().default("data").describe("Directory of the SQLite file, generated secrets, saved states and model files (relative to the working directory)."),
  HOST_ID: z.string().min(1).max(100).default("local").describe(
    "This node's id: names the node in the nodes table and the sessions it runs. On PostgreSQL every node needs its own (a start with the id of a live node is refused; docs/cluster.md).",
  ),
  NODE_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url().optional()).describe(
    "Address other nodes reach this one at, to forward requests for its sessions (docs/cluster.md). Unset: http://127.0.0.1:PORT (one machine).",
  ),
  NODE_LEASE_SECONDS: z.coerce.number().int().min(3).max(600).default(15).describe(
    "Seconds a node's lease lasts; it is renewed every third of it. A node silent for longer is dead: a survivor ends its sessions as crashed.",
  ),
  NODE_BROWSER_SLOTS: z.coerce.number().int().min(0).default(64).describe("Browser sessions this node offers the cluster (its capacity in the nodes table)."),

  // ---- database ----
  DATABASE_URL: z.string().optional().describe("file:<path> (SQLite) or postgresql://… Unset: SQLite at DATA_DIR/cabin.db."),

  // ---- auth ----
  CABIN_SECRET: z.string().min(32).optional().describe("Secret (32+ characters) for login cookies and at-rest encryption. Unset: generated into DATA_DIR/secret on first start."),
  SIGNUP: z.enum(["open", "invite", "closed"]).default("invite").describe(
    "Who may create an account in the dashboard: open = anyone; invite = the first account (it owns the install), then only people with a pending invitation; closed = the first account only (then the operator's CLI).",
  ),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(10).describe("Login and sign-up attempts allowed per client address per minute (0 turns the limit off)."),
  LOGIN_BACKOFF_FREE_FAILURES: z.coerce.number().int().min(1).default(5).describe(
    "Failed sign-ins per account and client address before the backoff starts (an attacker's failures never delay the owner elsewhere).",
  ),
  LOGIN_BACKOFF_BASE_SECONDS: z.coerce.number().int().min(1).default(1).describe("First backoff wait in seconds; each further failure doubles it (429 meanwhile)."),
  LOGIN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).default(900).describe("Longest backoff wait in seconds."),
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      try {
        parseAddressRanges(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    })
    .describe("Proxies whose X-Forwarded-For is believed: addresses or CIDRs, comma-separated (e.g. 127.0.0.1,10.0.0.0/8). Empty: the socket's address is the client's."),
  METRICS_TOKEN: z
    .preprocess((v) => (v === "" ? undefined : v), z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional())
    .describe("Bearer token (16+ characters) for GET /metrics (Prometheus). Unset: /metrics answers 404."),

  // ---- sessions (browser and desktop) ----
  SESSION_CDP: z.enum(["auto", "on", "off"]).default("on").describe(
    "CDP endpoints (endpoints.cdp) for browser sessions, for Playwright's connectOverCDP and Puppeteer's connect: on (default) or off. " +
      "auto is an older name for on, kept so existing configurations still start. See docs/cdp.md.",
  ),
  ACTION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60).describe("Seconds after which one action or screenshot of a session fails (status \"error\"); the next one runs."),
  SESSION_EGRESS: z.enum(["default", "public-only"]).default("default").describe(
    "Where sessions may connect: default refuses the host's loopback and addresses, link-local and cloud metadata, and Cabin itself; public-only refuses private ranges too (for Cabin facing the internet).",
  ),
  SESSION_EGRESS_ALLOW: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      try {
        parseEgressAllow(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    })
    .describe("Egress exceptions: hosts, host:port pairs and CIDRs, comma-separated. Cabin's own address stays refused unless an entry names that exact host:port."),

  // ---- agent tasks (docs/agent-tasks.md) ----
  AGENT_ORG_MAX_RUNNING_TASKS: z.coerce.number().int().min(1).default(4).describe("Agent tasks one organization may run (or hold paused) at once; a start past it is a 429."),
  AGENT_DEFAULT_MODEL: z.string().min(1).optional().describe("Model id an agent task uses when the start request names none. Unset: the configured <MODEL_PREFIX>.cua-fast model, else the first model."),
  AGENT_MAX_STEPS_LIMIT: z.coerce.number().int().min(1).max(10_000).default(200).describe("Largest max_steps an agent task may ask for (a start above it is a 400)."),

  // ---- per-organization quotas (the operator overrides them per organization: npm run cli -- org quota) ----
  ORG_MAX_BROWSER_SESSIONS: z.coerce.number().int().min(1).default(16).describe("Browser sessions one organization may run at once on this host (429 past it)."),
  ORG_MAX_DESKTOP_SESSIONS: z.coerce.number().int().min(1).optional().describe(
    "Desktops one organization may run at once on this host (429 past it). Unset: a quarter of DESKTOP_MAX_SESSIONS (at least 1), so a few organizations never take every slot.",
  ),
  ORG_SESSION_CREATES_PER_MINUTE: z.coerce.number().int().min(0).default(600).describe("Sessions (both kinds) one organization may create per minute (0 turns the limit off)."),

  // ---- browser sessions ----
  CHROMIUM_PATH: z.string().optional().describe("Path to a Chromium or Chrome binary. Unset: Playwright's install, then the system chromium."),
  PLAN_MAX_LIFETIME_SECONDS: z.coerce.number().int().min(10).default(3600).describe("Longest session lifetime in seconds, and the default of timeout_seconds."),
  ADVANCED_PROXY_URL: z.url().optional().describe("Upstream proxy for use_advanced_proxy sessions (http://user:pass@host:port). Unset: use_advanced_proxy is refused."),
  STATE_ENCRYPTION_KEY: z.string().min(32).optional().describe("Key (32+ characters) for saved session states (AES-256-GCM via HKDF). Unset: derived from the app secret."),
  STATE_SAVE_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(30).describe("Seconds between saves of a running persistent session's state (a crash loses at most this)."),
  STATE_INLINE_MAX_BYTES: z.coerce.number().int().min(0).default(1_048_576).describe("Saved states larger than this many bytes go to encrypted files under DATA_DIR/states instead of the database."),
  BROWSER_STANDBY_CONTEXTS: z.coerce.number().int().min(0).max(32).default(2).describe(
    "Floor of pre-made contexts (with a blank tab) kept ready so a create skips the first page; standby grows above it with demand.",
  ),
  BROWSER_STANDBY_MAX_CONTEXTS: z.coerce.number().int().min(0).max(64).default(20).describe("Ceiling of demand-sized standby contexts (~63 MiB each)."),
  BROWSER_STANDBY_REFILL_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2).describe("Standby contexts made at once in the background."),
  BROWSER_STANDBY_MIN_FREE_MB: z.coerce.number().int().min(0).default(1024).describe("Standby stops growing above its floor when free memory (MiB) would drop below this."),
  BROWSER_MAX_TABS_PER_SESSION: z.coerce.number().int().min(1).max(500).default(20).describe("Tabs one browser session may have open (each is a renderer); opening one more is a 409, and a popup past it is closed."),
  BROWSER_MAX_CONTEXTS_PER_PROCESS: z.coerce.number().int().min(1).default(100).describe("Sessions per Chromium process before another process is started."),
  BROWSER_RECYCLE_AFTER_CONTEXTS: z.coerce.number().int().min(1).default(1000).describe("Sessions after which a Chromium process is replaced (it ends when its last session does)."),
  BROWSER_ORG_IDLE_SECONDS: z.coerce.number().min(0).max(86_400).default(30).describe("Seconds an organization's own Chromium stays open after its last session ends."),
  BROWSER_SANDBOX: z.enum(["auto", "off"]).default("auto").describe(
    "auto: Chromium's own sandbox, as BROWSER_USER when the server runs as root (falls back to off, logged, when it cannot start); off: --no-sandbox.",
  ),
  BROWSER_USER: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, "a system user name").default("cabin-browser").describe("System user Chromium runs as when the server is root (created when missing)."),

  // ---- desktop sessions ----
  DESKTOP_ENABLED: bool.default(true).describe("Offer kind \"desktop\" (Linux, root and a built base image are needed too)."),
  DESKTOP_IMAGES_DIR: z.string().optional().describe("Where `npm run desktop:image` puts versioned base images. Unset: ~/.cache/cabin/desktop-images (outside the project)."),
  DESKTOP_IMAGE_MIRROR: z.url().default("http://deb.debian.org/debian").describe("Debian mirror the base image is built from (a desktop's apt uses it too)."),
  DESKTOP_MAX_SESSIONS: z.coerce.number().int().min(1).default(16).describe("Desktops running at once on this host (an idle one takes ~50 MiB, plus its apps)."),
  DESKTOP_START_TIMEOUT_SECONDS: z.coerce.number().int().min(5).default(60).describe("Seconds after which starting a desktop (with retries of stalled X clients) gives up."),
  DESKTOP_EXEC_MAX_OUTPUT_BYTES: z.coerce.number().int().min(1024).default(1_048_576).describe("Bytes of stdout and of stderr that exec/sync keeps (the rest is dropped and marked)."),

  // ---- model API ----
  MODEL_PREFIX: z.string().regex(/^[a-z0-9-]+$/).default("svc").describe("Provider prefix of the default model ids (svc.sm-1, svc.cua-fast)."),
  MODELS: z.string().optional().describe("JSON map of model id to backend settings (see docs/models.md). Unset: the two default ids run locally on a generated placeholder model."),
  MODEL_THREADS: z.coerce.number().int().min(1).max(256).default(1).describe("CPU threads per local model."),
  MODEL_CONTEXT_SIZE: z.coerce.number().int().min(128).default(8192).describe("Context size in tokens of local models unless MODELS sets one (capped at the model's own). Default 8192: the computer tool plus 20 steps of history fit."),
  MODEL_ALIASES: z.string().optional().describe(
    'JSON map of extra model ids to configured ones, e.g. {"tzafon.northstar-cua-fast": "svc.cua-fast"}, so clients keep their model ids. ' +
      'Default: tzafon.northstar-cua-fast -> <MODEL_PREFIX>.cua-fast when that model exists. "{}" turns aliases off.',
  ),
  MODEL_PARALLEL: z.coerce.number().int().min(1).max(64).default(1).describe("Requests a local model runs at once (llama.cpp sequences)."),
  MODEL_QUEUE_SIZE: z.coerce.number().int().min(0).default(64).describe("Requests that may wait per local model before new ones get 429."),
  MODEL_RATE_LIMIT_RPM: z.coerce.number().int().min(0).default(3000).describe("Requests per minute per organization on /v1 inference (0 turns the limit off)."),
  MODEL_RATE_LIMIT_TPM: z.coerce.number().int().min(0).default(2_000_000).describe("Tokens per minute per organization on /v1 inference (0 turns the limit off)."),
  MODEL_KEY_RATE_LIMIT_RPM: z.coerce.number().int().min(0).default(0).describe("Requests per minute per API key, on top of the organization's (0: only the organization's)."),
  MODEL_KEY_RATE_LIMIT_TPM: z.coerce.number().int().min(0).default(0).describe("Tokens per minute per API key, on top of the organization's (0: only the organization's)."),
  MODEL_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000).describe("Milliseconds an upstream backend may take to send its response headers, and between stream chunks."),
  MODEL_WARMUP: bool.default(true).describe("Load local models at start-up instead of on the first request."),
  MODEL_COOLDOWN_FAILURES: z.coerce.number().int().min(0).default(3).describe(
    "Failures in a row (timeout, connection error, 5xx, 429) after which a model backend is cooled down (0: never).",
  ),
  MODEL_COOLDOWN_SECONDS: z.coerce.number().min(0).default(30).describe("Seconds a cooled-down backend is skipped while a later backend of its model remains to try."),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Validated environment; throws one readable error naming every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(source);
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
