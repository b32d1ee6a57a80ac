// Shared by the live-view WebSocket upgrades (/ws and the desktop's vnc): where
// their credentials come from. Refusals and request ids are the edge's
// (refuseUpgrade, incomingRequestId), like every other upgrade.
import type { IncomingMessage } from "node:http";

/** The credentials of an upgrade request: the Authorization header and the `token` query parameter. */
export function upgradeCredentials(req: IncomingMessage, url: URL) {
  return { authorization: req.headers.authorization ?? null, token: url.searchParams.get("token") };
}
