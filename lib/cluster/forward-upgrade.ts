// WebSocket upgrades for a session another node runs (/computers/{id}/ws, its
// CDP endpoint, the desktop's VNC): the handshake is forwarded, the owner's 101
// relayed, then the two sockets are spliced both ways. A refusal by the owner
// (401, 404, 409…) is relayed as it is and the socket closed.
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { AppError } from "@/lib/api/errors";
import { refuseUpgrade, surfaceOf } from "@/lib/api/edge";
import { currentNode } from "@/lib/cluster/current-node";
import { acceptForwarded, afterUnreachable, openToOwner } from "@/lib/cluster/forward";
import { sessionIdOfPath } from "@/lib/cluster/forward-path";
import { planForward, type ForwardTarget } from "@/lib/cluster/forward-plan";
import { getLogger } from "@/lib/logger";
import type { ServeHere } from "@/lib/process-handles";

function headLines(status: number, statusMessage: string | undefined, rawHeaders: string[], extra: string[] = []): string {
  const lines = [`HTTP/1.1 ${status} ${statusMessage ?? STATUS_CODES[status] ?? ""}`];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (status !== 101 && (name === "connection" || name === "transfer-encoding" || name === "keep-alive")) continue;
    lines.push(`${rawHeaders[i]}: ${rawHeaders[i + 1]}`);
  }
  return `${[...lines, ...extra].join("\r\n")}\r\n\r\n`;
}

export function forwardUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, here: ServeHere): boolean {
  const node = currentNode();
  if (!node) return false;
  const requestId = String(req.headers["x-request-id"] ?? "");
  const accepted = acceptForwarded(req);
  if (accepted === "ok") return false;
  if (accepted) {
    refuseUpgrade(socket, accepted, requestId, surfaceOf(req.url ?? "/"));
    return true;
  }
  if (!sessionIdOfPath(req.url ?? "/")) return false;
  planForward(node, req, true).then(
    (target) => (target ? splice(req, socket, head, target, here) : here()),
    (err) => {
      getLogger().error({ err }, "could not decide where a session upgrade goes");
      refuseUpgrade(socket, new AppError("internal", "Could not route the request"), requestId);
    },
  );
  return true;
}

function splice(req: IncomingMessage, socket: Duplex, head: Buffer, target: ForwardTarget, here: ServeHere) {
  const requestId = String(req.headers["x-request-id"] ?? "");
  let connected = false;
  const outgoing = openToOwner(target, req, () => {
    connected = true;
    outgoing.end();
  });
  // The client gave up before the owner answered.
  const abandon = () => outgoing.destroy();
  socket.once("close", abandon);
  outgoing.on("upgrade", (answer, upstream, upstreamHead) => {
    socket.off("close", abandon);
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
    upstream.once("close", () => socket.destroy());
    socket.once("close", () => upstream.destroy());
    socket.write(headLines(101, answer.statusMessage, answer.rawHeaders));
    if (upstreamHead.length) socket.write(upstreamHead);
    if (head.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  outgoing.on("response", (answer) => {
    socket.off("close", abandon);
    socket.write(headLines(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders, ["Connection: close"]));
    answer.pipe(socket);
  });
  outgoing.on("error", (err: NodeJS.ErrnoException) => {
    if (socket.destroyed) return;
    if (!connected) return void afterUnreachable(target, err, here, (error) => refuseUpgrade(socket, error, requestId, surfaceOf(req.url ?? "/")));
    socket.destroy();
  });
}
