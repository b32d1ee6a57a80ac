// The one process: Next's handler for HTTP, domain fast paths before it (the
// model gateway's `httpHandlersKey`), the WebSocket upgrade hook, and graceful
// shutdown, which route handlers cannot do. Domain code lives inside Next's
// bundle; this file reaches it only through the slots in process-handles
// (`shutdownKey`, `httpHandlersKey`, `upgradeHandlersKey`).
// Upgrades go to the domain handlers by name ("computers-cdp", "computers-ws"), then to Next.
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { createServer, type Server } from "node:http";
import next from "next";
import { getEnv } from "./lib/env";
import { httpHandlersKey, shutdownKey, upgradeHandlersKey } from "./lib/process-handles";
import { peekSingleton } from "./lib/singleton";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const env = getEnv();
const dev = env.NODE_ENV === "development";

// Next attaches its own "upgrade" listener to the server of the first request it
// handles (NextCustomServer.setupWebSocketHandler) unless it is given `httpServer`,
// and that listener ends every upgrade Next has no route for, the domain ones
// included. So it gets a sink: upgrades reach Next only through `nextUpgrade`
// below, after the domain handlers declined them.
const upgradeSink = new EventEmitter() as unknown as Server;
const app = next({ dev, hostname: env.HOST, port: env.PORT, dir: process.cwd(), httpServer: upgradeSink });
await app.prepare();
const handle = app.getRequestHandler();
const nextUpgrade = app.getUpgradeHandler();

const server = createServer((req, res) => {
  const given = req.headers["x-request-id"];
  const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : `req_${randomBytes(12).toString("hex")}`;
  req.headers["x-request-id"] = requestId;
  res.setHeader("x-request-id", requestId);
  // Domain HTTP fast paths (the model gateway) first: each returns true when it took the request.
  const fastPaths = peekSingleton(httpHandlersKey);
  if (fastPaths) for (const take of fastPaths.values()) if (take(req, res)) return;
  void handle(req, res);
});

server.on("upgrade", (req, socket, head) => {
  for (const take of peekSingleton(upgradeHandlersKey)?.values() ?? []) if (take(req, socket, head)) return;
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
    await peekSingleton(shutdownKey)?.(signal);
  } finally {
    server.closeAllConnections();
    process.exit(0);
  }
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
