// The handles the custom server uses to reach domain code. The server lives
// outside Next's bundle, so it cannot import domain modules; both sides meet on
// these typed process-wide slots instead (see `singletonKey`).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { singletonKey } from "./singleton";

/** Takes an HTTP request before Next does; returns true when it answered it. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => boolean;
/** Takes a WebSocket upgrade before Next does; returns true when it took the socket. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
/** Ends every domain's work (the hooks `boot` registered), once. */
export type ShutdownHandle = (reason: string) => Promise<void>;

/** Set by `boot`; called by the server on SIGTERM/SIGINT. */
export const shutdownKey = singletonKey<ShutdownHandle>("shutdown");
/**
 * Domain HTTP fast paths (the model gateway) by name, consulted in order before
 * Next; registering a name again (a dev reload) replaces its handler.
 */
export const httpHandlersKey = singletonKey<Map<string, HttpHandler>>("httpHandlers");
/** Domain WebSocket upgrade handlers by name, consulted in order before Next. */
export const upgradeHandlersKey = singletonKey<Map<string, UpgradeHandler>>("upgradeHandlers");

/**
 * Answers locally what the forwarding layer leaves to this process (Next, the domain handlers): the request as
 * it came, or `request` in its place when the layer read its body first (the same socket, the body as read).
 */
export type ServeHere = (request?: IncomingMessage) => void;
/**
 * The cluster's forwarding layer (docs/cluster.md): takes a request for a
 * session another node runs and forwards it; true when it took the request
 * (answering it later, or calling `here` to serve it in this process after all).
 */
export interface ClusterForwarder {
  http(req: IncomingMessage, res: ServerResponse, here: ServeHere): boolean;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, here: ServeHere): boolean;
}
export const clusterForwardKey = singletonKey<ClusterForwarder>("clusterForward");
