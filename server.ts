// The one process: Next's handler for HTTP, plus WebSocket upgrades (CDP and
// live view) and graceful shutdown, which route handlers cannot do.
// Domain code lives inside Next's bundle; this file reaches it only through
// handles that lib/boot.ts puts on globalThis.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import next from "next";
import { getEnv } from "./lib/env";
import { httpFastPathsKey } from "./lib/http-fast-paths";
import { peekSingleton } from "./lib/singleton";

type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
const handles = globalThis as unknown as {
  cabinShutdown?: (reason: string) => Promise<void>;
  /** Domain upgrade handlers; each returns true when it took the socket. */
  cabinUpgradeHandlers?: UpgradeHandler[];
};

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const env = getEnv();
const dev = env.NODE_ENV === "development";

const app = next({ dev, hostname: env.HOST, port: env.PORT, dir: process.cwd() });
await app.prepare();
const handle = app.getRequestHandler();
const nextUpgrade = app.getUpgradeHandler();

const server = createServer((req, res) => {
  const given = req.headers["x-request-id"];
  const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : `req_${randomBytes(12).toString("hex")}`;
  req.headers["x-request-id"] = requestId;
  res.setHeader("x-request-id", requestId);
  // Domain HTTP fast paths (the model gateway) first: each returns true when it took the request.
  const fastPaths = peekSingleton(httpFastPathsKey);
  if (fastPaths) for (const take of fastPaths.values()) if (take(req, res)) return;
  void handle(req, res);
});

server.on("upgrade", (req, socket, head) => {
  for (const take of handles.cabinUpgradeHandlers ?? []) if (take(req, socket, head)) return;
  void nextUpgrade(req, socket, head);
});

// Long-lived streams (SSE, CDP) must not be cut by Node's default timeouts.
server.requestTimeout = 0;
server.keepAliveTimeout = 65_000;

server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  console.log(`Cabin ready on http://localhost:${port} (${dev ? "development" : "production"})`);
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) {
    console.log(`${signal} again: exiting now`);
    process.exit(1);
  }
  stopping = true;
  console.log(`${signal} received: ending sessions and shutting down`);
  server.close();
  try {
    await handles.cabinShutdown?.(signal);
  } finally {
    server.closeAllConnections();
    process.exit(0);
  }
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
