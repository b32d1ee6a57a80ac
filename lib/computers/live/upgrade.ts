// Shared pieces of the live-view WebSocket upgrades (/ws and the desktop's
// vnc): the request id, and refusing an upgrade with the same JSON error body
// and status an HTTP request of the API would get (401, 404, 409…).
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { renderError } from "@/lib/api/render";
import { requestIdFrom } from "@/lib/api/request";

export function upgradeRequestId(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return requestIdFrom(typeof given === "string" ? given : null);
}

/** Answers the upgrade request with the API's error response and closes the socket. */
export function refuseUpgrade(socket: Duplex, error: unknown, requestId: string): void {
  const { status, headers, body } = renderError(error, "api", requestId);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`];
  for (const [name, value] of Object.entries({ ...headers, "content-length": String(Buffer.byteLength(body)), connection: "close" })) {
    lines.push(`${name}: ${value}`);
  }
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

/** The credentials of an upgrade request: the Authorization header and the `token` query parameter. */
export function upgradeCredentials(req: IncomingMessage, url: URL) {
  return { authorization: req.headers.authorization ?? null, token: url.searchParams.get("token") };
}
