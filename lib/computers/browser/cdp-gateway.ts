// The CDP gateway: `GET /computers/{id}/cdp` WebSocket upgrades (registered in
// the custom server's upgrade slot as "computers-cdp") and the HTTP discovery
// document `GET /computers/{id}/cdp/json/version` (a slot of the HTTP fast
// paths, for clients given the http(s) URL: Playwright's connectOverCDP and
// Puppeteer's browserURL fetch it and then connect to webSocketDebuggerUrl).
//
// Each client gets its own DevTools connection to the pool browser, filtered
// by CdpRelay to the session's context. The relays end with the session: the
// gateway subscribes to the manager's session-end event at its "cdp" stage
// (SessionEndBus) and closes them with CLOSE_SESSION_ENDED, "session ended: …".
// A client's traffic is activity, recorded at most once a second.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { incomingRequestId, refuseUpgrade } from "@/lib/api/edge";
import { publicOrigin } from "@/lib/api/public-url";
import { renderError } from "@/lib/api/render";
import { authorizeCdp } from "@/lib/computers/browser/cdp-access";
import { CdpRelay, CLOSE_SESSION_ENDED } from "@/lib/computers/browser/cdp-relay";
import { cdpUrl } from "@/lib/computers/browser/cdp-url";
import { getSessionManager } from "@/lib/computers/registry";
import { getLogger } from "@/lib/logger";
import { httpHandlersKey, upgradeHandlersKey, type HttpHandler, type UpgradeHandler } from "@/lib/process-handles";
import { singleton, singletonKey } from "@/lib/singleton";

const CDP_PATH = /^\/computers\/([A-Za-z0-9_-]{1,64})\/cdp\/?$/;
const DISCOVERY_PATH = /^\/computers\/([A-Za-z0-9_-]{1,64})\/cdp\/json\/version\/?$/;
const ACTIVITY_EVERY_MS = 1_000;
const UPSTREAM_CONNECT_TIMEOUT_MS = 10_000;

/** Open relays by session id, closed when the session ends (`closeRelaysOnEnd`). */
const relays = singleton(singletonKey<Map<string, Set<CdpRelay>>>("cdpGatewayRelays"), () => new Map());
const END_SUBSCRIPTION = singletonKey<() => void>("cdpGatewayEndSubscription");

function closeRelaysOnEnd(): void {
  singleton(END_SUBSCRIPTION, () =>
    getSessionManager().ends.subscribe("cdp", ({ sessionId, reason }) => {
      for (const relay of relays.get(sessionId) ?? []) relay.close(CLOSE_SESSION_ENDED, `session ended: ${reason}`);
      relays.delete(sessionId);
    }),
  );
}

function track(sessionId: string, relay: CdpRelay): () => void {
  let set = relays.get(sessionId);
  if (!set) relays.set(sessionId, (set = new Set()));
  set.add(relay);
  return () => {
    set.delete(relay);
    if (set.size === 0 && relays.get(sessionId) === set) relays.delete(sessionId);
  };
}

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });

function openUpstream(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const upstream = new WebSocket(url, {
      perMessageDeflate: false,
      maxPayload: 256 * 1024 * 1024,
      handshakeTimeout: UPSTREAM_CONNECT_TIMEOUT_MS,
    });
    upstream.once("open", () => resolve(upstream));
    upstream.once("error", reject);
  });
}

async function accept(req: IncomingMessage, socket: Duplex, head: Buffer, sessionId: string) {
  const requestId = incomingRequestId(req);
  let upstream: WebSocket | null = null;
  try {
    const { live, cdp } = await authorizeCdp(req, sessionId);
    const target = await cdp.target();
    upstream = await openUpstream(target.browserUrl);
    if (socket.destroyed) return upstream.terminate();
    const manager = getSessionManager();
    closeRelaysOnEnd();
    void manager.touch(live).catch(() => {});
    const opened = upstream;
    wss.handleUpgrade(req, socket, head, (client) => {
      let lastTouch = Date.now();
      let untrack = () => {};
      const relay: CdpRelay = new CdpRelay(client, opened, target.contextId, {
        onActivity() {
          if (Date.now() - lastTouch < ACTIVITY_EVERY_MS) return;
          lastTouch = Date.now();
          void manager.touch(live).catch(() => {});
        },
        onClosed() {
          untrack();
        },
      });
      untrack = track(sessionId, relay);
      // The session may have begun ending while the socket was being accepted.
      if (manager.isEnding(live)) relay.close(CLOSE_SESSION_ENDED, "session ended");
    });
  } catch (err) {
    upstream?.terminate();
    if (!socket.destroyed) refuseUpgrade(socket, err, requestId);
    getLogger().debug({ err, sessionId, requestId }, "CDP connection refused");
  }
}

export const cdpUpgradeHandler: UpgradeHandler = (req, socket, head) => {
  const match = CDP_PATH.exec((req.url ?? "/").split("?")[0]!);
  if (!match) return false;
  void accept(req, socket, head, match[1]!);
  return true;
};

async function discovery(req: IncomingMessage, res: ServerResponse, sessionId: string) {
  const requestId = incomingRequestId(req);
  try {
    const { live, cdp } = await authorizeCdp(req, sessionId);
    const target = await cdp.target();
    const version = await fetch(target.browserUrl.replace(/^ws:/, "http:").replace(/\/devtools\/.*$/, "/json/version"));
    const info = (await version.json()) as Record<string, unknown>;
    const origin = publicOrigin({ get: (name) => (req.headers[name] as string | undefined) ?? null });
    const body = JSON.stringify({
      Browser: info.Browser,
      "Protocol-Version": info["Protocol-Version"],
      "User-Agent": info["User-Agent"],
      "V8-Version": info["V8-Version"],
      "WebKit-Version": info["WebKit-Version"],
      webSocketDebuggerUrl: cdpUrl(live, origin),
    });
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(body);
  } catch (err) {
    const rendered = renderError(err, "api", requestId);
    res.writeHead(rendered.status, rendered.headers).end(rendered.body);
  }
}

export const cdpDiscoveryHandler: HttpHandler = (req, res) => {
  if (req.method !== "GET") return false;
  const match = DISCOVERY_PATH.exec((req.url ?? "/").split("?")[0]!);
  if (!match) return false;
  void discovery(req, res, match[1]!);
  return true;
};

/** Offers the gateway to the custom server (idempotent: a dev reload replaces it). */
export function registerCdpGateway(): void {
  singleton(upgradeHandlersKey, () => new Map()).set("computers-cdp", cdpUpgradeHandler);
  singleton(httpHandlersKey, () => new Map()).set("computers-cdp", cdpDiscoveryHandler);
}
