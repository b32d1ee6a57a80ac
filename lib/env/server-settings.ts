// Settings of the server itself: listening, limits on requests, data, database, auth, metrics.
// Part of `envSchema` (lib/env.ts), the only reader of the environment; no domain imports here.
import { z } from "zod";
import { parseAddressRanges } from "@/lib/ip-ranges";
import { bool } from "@/lib/env/bool";

export const serverSettings = {
  NODE_ENV: z
    .enum(["development", "production", "test"])
    .default("development")
    .describe(
      "Set by the scripts: production for `npm start`, development for `npm run dev` (Next dev server, pretty logs).",
    ),
  CI: bool.default(false).describe("Set by CI runners; accepted and validated, nothing in the server changes with it."),

  // ---- server ----
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(3000)
    .describe("TCP port the server listens on (0: any free port)."),
  HOST: z.string().default("0.0.0.0").describe("Address the server listens on (127.0.0.1 keeps it to this machine)."),
  PUBLIC_URL: z
    .preprocess((v) => (v === "" ? undefined : v), z.url().optional())
    .describe(
      "Public address of the app (links, auth callbacks). Unset: the address each request came by " +
        "(X-Forwarded-Proto/-Host or Host), localhost:PORT without one.",
    ),
  MAX_REQUEST_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(32 * 1024 * 1024)
    .describe("Largest request body any surface accepts, in bytes (413 past it; counted as it arrives)."),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15)
    .describe("Seconds a client has to send its request headers before the socket is closed."),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60)
    .describe("Seconds a client has to send its whole request (not the answer: streams are not cut)."),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024)
    .describe(
      "Sockets one client address may hold open at once; past it a new connection gets 429 and is closed " +
        "(trusted proxies are exempt).",
    ),
  WEBSOCKETS_MAX_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .default(256)
    .describe(
      "Upgrade requests and WebSockets (CDP, live view, VNC) one client address may hold at once (the forwarded " +
        "address behind a trusted proxy); past it 429.",
    ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("Least severe log level written (pino)."),
  DATA_DIR: z
    .string()
    .default("data")
    .describe(
      "Directory of the SQLite file, generated secrets, saved states and model files (relative to the working " +
        "directory).",
    ),
  HOST_ID: z
    .string()
    .min(1)
    .max(100)
    .default("local")
    .describe(
      "This node's id: names the node in the nodes table and the sessions it runs. On PostgreSQL every node " +
        "needs its own (a start with the id of a live node is refused; docs/cluster.md).",
    ),
  NODE_URL: z
    .preprocess((v) => (v === "" ? undefined : v), z.url().optional())
    .describe(
      "Address other nodes reach this one at, to forward requests for its sessions (docs/cluster.md). Unset: " +
        "http://127.0.0.1:PORT (one machine).",
    ),
  NODE_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(3)
    .max(600)
    .default(15)
    .describe(
      "Seconds a node's lease lasts; it is renewed every third of it. A node silent for longer is dead: a " +
        "survivor ends its sessions as crashed.",
    ),
  NODE_BROWSER_SLOTS: z.coerce
    .number()
    .int()
    .min(0)
    .default(64)
    .describe("Browser sessions this node offers the cluster (its capacity in the nodes table)."),

  // ---- database ----
  DATABASE_URL: z
    .string()
    .optional()
    .describe("file:<path> (SQLite) or postgresql://… Unset: SQLite at DATA_DIR/cabin.db."),

  // ---- auth ----
  CABIN_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe(
      "Secret (32+ characters) for login cookies and at-rest encryption. Unset: generated into DATA_DIR/secret " +
        "on first start.",
    ),
  SIGNUP: z
    .enum(["open", "invite", "closed"])
    .default("invite")
    .describe(
      "Who may create an account in the dashboard: open = anyone; invite = the first account (it owns the " +
        "install), then only people with a pending invitation; closed = the first account only (then the " +
        "operator's CLI).",
    ),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(10)
    .describe("Login and sign-up attempts allowed per client address per minute (0 turns the limit off)."),
  LOGIN_BACKOFF_FREE_FAILURES: z.coerce
    .number()
    .int()
    .min(1)
    .default(5)
    .describe(
      "Failed sign-ins per account and client address before the backoff starts (an attacker's failures never " +
        "delay the owner elsewhere).",
    ),
  LOGIN_BACKOFF_BASE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .describe("First backoff wait in seconds; each further failure doubles it (429 meanwhile)."),
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
    .describe(
      "Proxies whose X-Forwarded-For is believed: addresses or CIDRs, comma-separated (e.g. " +
        "127.0.0.1,10.0.0.0/8). Empty: the socket's address is the client's.",
    ),
  METRICS_TOKEN: z
    .preprocess(
      (v) => (v === "" ? undefined : v),
      z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
    )
    .describe("Bearer token (16+ characters) for GET /metrics (Prometheus). Unset: /metrics answers 404."),
};
