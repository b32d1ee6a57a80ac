// GET /computers/{id}/ws: the interactive live view (docs/contract.md "Streams"),
// the upgrade handler "computers-ws". Server → client: each frame of the
// shared capture as a binary JPEG message, `{"type":"cursor","x","y"}` and
// `{"type":"ended","reason"}` as text. Client → server: JSON input messages
// (parseLiveInput), applied in order through the handle's liveInput; a bad
// message is answered with `{"type":"error","message"}` and the socket stays
// open. Input is activity (touchForInput); watching alone is not.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { isAppError } from "@/lib/api/errors";
import { isActionError } from "@/lib/computers/actions/action-error";
import type { ScreencastSettings } from "@/lib/computers/driver";
import { reachLiveView, touchForInput, type LiveViewTarget } from "@/lib/computers/live/access";
import { parseLiveInput } from "@/lib/computers/live/input-message";
import { keepWebSocketAlive } from "@/lib/computers/live/keep-alive";
import { parseLiveViewQuery } from "@/lib/computers/live/screencast-stream";
import { refuseUpgrade, incomingRequestId } from "@/lib/api/edge";
import { upgradeCredentials } from "@/lib/computers/live/upgrade";
import { getLogger } from "@/lib/logger";

const PATH = /^\/computers\/([^/]+)\/ws$/;
// A client that does not read its frames loses them rather than growing our buffers.
const MAX_BUFFERED_BYTES = 2 * 1024 * 1024;
const MAX_MESSAGE_BYTES = 64 * 1024;
// WebSocket close codes: 1000 normal (the session ended), 1011 server error.
const CLOSE_NORMAL = 1000;

const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

/** The upgrade handler: takes /computers/{id}/ws, authorizes, then serves the socket. */
export function liveViewUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const url = new URL(req.url ?? "/", "http://localhost");
  const match = PATH.exec(url.pathname);
  if (!match) return false;
  void accept(req, socket, head, decodeURIComponent(match[1]), url);
  return true;
}

async function accept(req: IncomingMessage, socket: Duplex, head: Buffer, id: string, url: URL) {
  const requestId = incomingRequestId(req);
  let target: LiveViewTarget;
  let settings: ScreencastSettings;
  try {
    settings = parseLiveViewQuery(url.searchParams);
    target = await reachLiveView({ id, ...upgradeCredentials(req, url) });
  } catch (err) {
    refuseUpgrade(socket, err, requestId);
    return;
  }
  server.handleUpgrade(req, socket, head, (ws) => serve(ws, target, settings));
}

function sendText(ws: WebSocket, message: Record<string, unknown>) {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function serve(ws: WebSocket, target: LiveViewTarget, settings: ScreencastSettings) {
  const { live, handle, hub } = target;
  let detach = () => {};
  try {
    detach = hub.attach({
      ...settings,
      frame(frame) {
        if (ws.readyState !== ws.OPEN || ws.bufferedAmount > MAX_BUFFERED_BYTES) return;
        ws.send(frame.jpeg, { binary: true });
      },
      cursor(x, y) {
        sendText(ws, { type: "cursor", x, y });
      },
      ended(reason) {
        sendText(ws, { type: "ended", reason });
        ws.close(CLOSE_NORMAL, `session ended: ${reason}`.slice(0, 120));
      },
    });
  } catch {
    sendText(ws, { type: "ended", reason: "ending" });
    ws.close(CLOSE_NORMAL, "session ended");
    return;
  }
  ws.on("close", () => detach());
  ws.on("error", () => detach());
  keepWebSocketAlive(ws);

  // Input is applied one message at a time, in the order sent.
  let queue: Promise<void> = Promise.resolve();
  ws.on("message", (data: RawData, isBinary: boolean) => {
    queue = queue.then(() => applyInput(ws, target, data, isBinary));
  });

  async function applyInput(socket: WebSocket, { live: session }: LiveViewTarget, data: RawData, isBinary: boolean) {
    if (isBinary) {
      sendText(socket, { type: "error", message: "Input messages are JSON text, not binary" });
      return;
    }
    try {
      const input = parseLiveInput(data.toString());
      if (!handle.liveInput) throw new Error(`${handle.kind} sessions take no live input on this server`);
      touchForInput(session);
      await handle.liveInput.send(input);
    } catch (err) {
      const known = isAppError(err) || isActionError(err);
      if (!known) getLogger().warn({ err, id: live.id }, "live-view input failed");
      sendText(socket, { type: "error", message: err instanceof Error ? err.message.split("\n")[0] : String(err) });
    }
  }
}
