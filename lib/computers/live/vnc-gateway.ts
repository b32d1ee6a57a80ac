// GET /computers/{id}/vnc: a desktop's x11vnc over WebSocket (RFB), the upgrade
// handler "computers-vnc", for noVNC (`new RFB(canvas, endpoints.vnc)`).
// Authorized like /ws (reachLiveView: the live-view token or the API key of the
// session's organization); then the upgrade request is replayed to x11vnc,
// which answers the WebSocket handshake itself on its RFB port, and the two
// sockets are spliced. Credentials, cookies and the client's Origin are not
// passed on; x11vnc's handshake requires an Origin (libvncserver refuses one
// without: "incomplete client handshake", measured), so its own is sent. Each
// client holds a VncLease; the last one to leave stops x11vnc.
import type { IncomingMessage } from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { AppError } from "@/lib/api/errors";
import type { VncLease } from "@/lib/computers/driver";
import { reachLiveView } from "@/lib/computers/live/access";
import { cutStalledReader } from "@/lib/computers/live/keep-alive";
import { refuseUpgrade, incomingRequestId } from "@/lib/api/edge";
import { upgradeCredentials } from "@/lib/computers/live/upgrade";

const PATH = /^\/computers\/([^/]+)\/vnc$/;
const DROPPED_HEADERS = new Set([
  "authorization",
  "origin",
  "host",
  "cookie",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
]);

export function vncUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const url = new URL(req.url ?? "/", "http://localhost");
  const match = PATH.exec(url.pathname);
  if (!match) return false;
  void proxy(req, socket, head, decodeURIComponent(match[1]), url);
  return true;
}

async function proxy(req: IncomingMessage, socket: Duplex, head: Buffer, id: string, url: URL) {
  let lease: VncLease;
  try {
    const { handle } = await reachLiveView({ id, ...upgradeCredentials(req, url) });
    if (!handle.vnc) {
      throw new AppError(
        "not_found",
        `Session '${id}' has no VNC endpoint (desktop sessions only, on servers with x11vnc)`,
        {
          detail: "no_vnc_endpoint",
        },
      );
    }
    lease = await handle.vnc.open();
  } catch (err) {
    refuseUpgrade(socket, err, incomingRequestId(req));
    return;
  }
  if (socket.destroyed) return lease.release();
  const upstream = net.connect(lease.port, "127.0.0.1");
  const local = `127.0.0.1:${lease.port}`;
  const lines = ["GET / HTTP/1.1", `Host: ${local}`, `Origin: http://${local}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!DROPPED_HEADERS.has(req.rawHeaders[i].toLowerCase()))
      lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  }
  upstream.once("connect", () => {
    upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (head.length) upstream.write(head);
    socket.pipe(upstream).pipe(socket);
    cutStalledReader(socket);
  });
  const close = () => {
    lease.release();
    upstream.destroy();
    socket.destroy();
  };
  upstream.once("error", close);
  socket.once("error", close);
  socket.once("close", close);
  upstream.once("close", close);
}
