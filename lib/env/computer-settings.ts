// Settings of sessions (browser and desktop), agent tasks and per-organization quotas.
// Part of `envSchema` (lib/env.ts), the only reader of the environment; no domain imports here.
import { z } from "zod";
import { parseEgressAllow } from "@/lib/egress-allow";
import { bool } from "@/lib/env/bool";

export const computerSettings = {
  // ---- sessions (browser and desktop) ----
  SESSION_CDP: z
    .enum(["auto", "on", "off"])
    .default("on")
    .describe(
      "CDP endpoints (endpoints.cdp) for browser sessions, for Playwright's connectOverCDP and Puppeteer's " +
        "connect: on (default) or off. " +
        "auto is an older name for on, kept so existing configurations still start. See docs/cdp.md.",
    ),
  ACTION_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(60)
    .describe('Seconds after which one action or screenshot of a session fails (status "error"); the next one runs.'),
  SESSION_EGRESS: z
    .enum(["default", "public-only"])
    .default("default")
    .describe(
      "Where sessions may connect: default refuses the host's loopback and addresses, link-local and cloud " +
        "metadata, and Cabin itself; public-only refuses private ranges too (for Cabin facing the internet).",
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
    .describe(
      "Egress exceptions: hosts, host:port pairs and CIDRs, comma-separated. Cabin's own address stays refused " +
        "unless an entry names that exact host:port.",
    ),

  // ---- agent tasks (docs/agent-tasks.md) ----
  AGENT_ORG_MAX_RUNNING_TASKS: z.coerce
    .number()
    .int()
    .min(1)
    .default(4)
    .describe("Agent tasks one organization may run (or hold paused) at once; a start past it is a 429."),
  AGENT_DEFAULT_MODEL: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Model id an agent task uses when the start request names none. Unset: the configured " +
        "<MODEL_PREFIX>.cua-fast model, else the first model.",
    ),
  AGENT_MAX_STEPS_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(200)
    .describe("Largest max_steps an agent task may ask for (a start above it is a 400)."),
  AGENT_TASK_EVENT_HISTORY: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(500)
    .describe(
      "Events kept per agent task (while it runs and 10 minutes after) for task streams resumed with Last-Event-ID or ?from=; older ones are dropped and a resumed stream gets a replay_gap event.",
    ),
  AGENT_HANDOFF_LINK_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .max(86_400)
    .default(3600)
    .describe(
      "How long a hand-off's take-over link (live_view_url of a needs_human event) works, at most; never past the session's expires_at. Reading the task again gives a fresh link.",
    ),

  // ---- per-organization quotas (the operator overrides them per organization: npm run cli -- org quota) ----
  ORG_MAX_BROWSER_SESSIONS: z.coerce
    .number()
    .int()
    .min(1)
    .default(16)
    .describe("Browser sessions one organization may run at once on this host (429 past it)."),
  ORG_MAX_DESKTOP_SESSIONS: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "Desktops one organization may run at once on this host (429 past it). Unset: a quarter of DESKTOP_MAX_SESSIONS (at least 1), so a few organizations never take every slot.",
    ),
  ORG_SESSION_CREATES_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(600)
    .describe("Sessions (both kinds) one organization may create per minute (0 turns the limit off)."),

  // ---- start admission on this node (docs/cluster.md "Start admission") ----
  SESSION_START_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .describe(
      "Browser-context and desktop starts this node runs at once; later creates wait in a queue, in order, so a burst of creates does not stall live sessions.",
    ),
  SESSION_START_QUEUE_MAX: z.coerce
    .number()
    .int()
    .min(0)
    .default(64)
    .describe("Creates that may wait for a start on this node; one past it is a 503 with retry-after."),
  SESSION_START_QUEUE_WAIT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(600)
    .default(60)
    .describe("Seconds a create may wait for a start on this node before it is a 503 with retry-after."),

  // ---- browser sessions ----
  CHROMIUM_PATH: z
    .string()
    .optional()
    .describe("Path to a Chromium or Chrome binary. Unset: Playwright's install, then the system chromium."),
  PLAN_MAX_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .default(3600)
    .describe("Longest session lifetime in seconds, and the default of timeout_seconds."),
  ADVANCED_PROXY_URL: z
    .url()
    .optional()
    .describe(
      "Upstream proxy for use_advanced_proxy sessions (http://user:pass@host:port). Unset: use_advanced_proxy is refused.",
    ),
  STATE_ENCRYPTION_KEY: z
    .string()
    .min(32)
    .optional()
    .describe(
      "Key (32+ characters) for saved session states (AES-256-GCM via HKDF). Unset: derived from the app secret.",
    ),
  STATE_SAVE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe("Seconds between saves of a running persistent session's state (a crash loses at most this)."),
  STATE_INLINE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1_048_576)
    .describe(
      "On SQLite, saved states larger than this many bytes go to encrypted files under DATA_DIR/states instead of the database (on PostgreSQL every state is in the database).",
    ),
  PROFILE_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(36_500)
    .default(90)
    .describe(
      "Days a browser profile (POST /computers profile) is kept after a session last used it; then it is deleted.",
    ),
  BROWSER_STANDBY_CONTEXTS: z.coerce
    .number()
    .int()
    .min(0)
    .max(32)
    .default(2)
    .describe(
      "Floor of pre-made contexts (with a blank tab) kept ready so a create skips the first page; standby grows above it with demand.",
    ),
  BROWSER_STANDBY_MAX_CONTEXTS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(20)
    .describe("Ceiling of demand-sized standby contexts (~63 MiB each)."),
  BROWSER_STANDBY_REFILL_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(2)
    .describe(
      "Standby contexts made at once in the background, each in a free start slot (SESSION_START_CONCURRENCY).",
    ),
  BROWSER_STANDBY_MIN_FREE_MB: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024)
    .describe("Standby stops growing above its floor when free memory (MiB) would drop below this."),
  BROWSER_MAX_TABS_PER_SESSION: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(20)
    .describe(
      "Tabs one browser session may have open (each is a renderer); opening one more is a 409, and a popup past it is closed.",
    ),
  BROWSER_MAX_CONTEXTS_PER_PROCESS: z.coerce
    .number()
    .int()
    .min(1)
    .default(100)
    .describe("Sessions per Chromium process before another process is started."),
  BROWSER_RECYCLE_AFTER_CONTEXTS: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe("Sessions after which a Chromium process is replaced (it ends when its last session does)."),
  BROWSER_ORG_IDLE_SECONDS: z.coerce
    .number()
    .min(0)
    .max(86_400)
    .default(30)
    .describe("Seconds an organization's own Chromium stays open after its last session ends."),
  BROWSER_SANDBOX: z
    .enum(["auto", "off"])
    .default("auto")
    .describe(
      "auto: Chromium's own sandbox, as BROWSER_USER when the server runs as root (falls back to off, logged, when it cannot start); off: --no-sandbox.",
    ),
  BROWSER_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/, "a system user name")
    .default("cabin-browser")
    .describe("System user Chromium runs as when the server is root (created when missing)."),

  // ---- desktop sessions ----
  DESKTOP_ENABLED: bool
    .default(true)
    .describe('Offer kind "desktop" (Linux, root and a built base image are needed too).'),
  DESKTOP_IMAGES_DIR: z
    .string()
    .optional()
    .describe(
      "Where `npm run desktop:image` puts versioned base images. Unset: ~/.cache/cabin/desktop-images (outside the project).",
    ),
  DESKTOP_IMAGE_MIRROR: z
    .url()
    .default("http://deb.debian.org/debian")
    .describe("Debian mirror the base image is built from (a desktop's apt uses it too)."),
  DESKTOP_MAX_SESSIONS: z.coerce
    .number()
    .int()
    .min(1)
    .default(16)
    .describe("Desktops running at once on this host (an idle one takes ~50 MiB, plus its apps)."),
  DESKTOP_STANDBY: z.coerce
    .number()
    .int()
    .min(0)
    .max(16)
    .default(1)
    .describe(
      "Fresh desktops kept started (default screen size) so a create adopts one at once; within DESKTOP_MAX_SESSIONS and free memory (BROWSER_STANDBY_MIN_FREE_MB). 0: every desktop starts cold.",
    ),
  DESKTOP_START_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .default(60)
    .describe("Seconds after which starting a desktop (with retries of stalled X clients) gives up."),
  DESKTOP_EXEC_MAX_OUTPUT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1_048_576)
    .describe("Bytes of stdout and of stderr that exec/sync keeps (the rest is dropped and marked)."),
  LIVE_VIEW_PING_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30)
    .default(20)
    .describe(
      "A live-view WebSocket (/ws) is pinged this often and closed when a ping went unanswered until the next (a client that neither reads nor answers is cut within twice this); a VNC socket whose client has read nothing for twice this is closed too.",
    ),
};
