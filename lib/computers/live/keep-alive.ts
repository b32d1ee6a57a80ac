// Live-view sockets that hold a slot without using it (docs/live-view.md "Keep-alive"): a /ws client
// that neither reads its frames nor answers pings, or a VNC client that reads nothing, keeps a
// socket, a capture and our buffers. Each is checked every LIVE_VIEW_PING_SECONDS and cut when it
// has shown no sign of life for a whole period, so a dead client goes within twice that.
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { getEnv } from "@/lib/env";

const periodMs = () => getEnv().LIVE_VIEW_PING_SECONDS * 1000;

/** Pings `ws` every period; one that did not answer the previous ping is terminated. */
export function keepWebSocketAlive(ws: WebSocket): void {
  let answered = true;
  ws.on("pong", () => {
    answered = true;
  });
  const timer = setInterval(() => {
    if (!answered) {
      ws.terminate();
      return;
    }
    answered = false;
    // A client that does not read never sees the ping (it waits behind the frames in its buffer).
    ws.ping();
  }, periodMs());
  timer.unref();
  ws.once("close", () => clearInterval(timer));
}

/**
 * Destroys a spliced socket (VNC: raw RFB bytes, no pings of our own to send) whose client has taken
 * nothing for a whole period while data waited for it: bytes queued and none handed to the kernel since.
 */
export function cutStalledReader(socket: Duplex): void {
  const tcp = socket as Socket;
  let lastWritten = tcp.bytesWritten ?? 0;
  let stalledChecks = 0;
  const timer = setInterval(() => {
    const written = tcp.bytesWritten ?? 0;
    const stalled = socket.writableLength > 0 && written === lastWritten;
    lastWritten = written;
    stalledChecks = stalled ? stalledChecks + 1 : 0;
    if (stalledChecks >= 2) socket.destroy();
  }, periodMs());
  timer.unref();
  socket.once("close", () => clearInterval(timer));
}
