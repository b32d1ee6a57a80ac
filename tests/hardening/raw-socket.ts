// Bytes on a socket, for what no HTTP client sends: upgrade requests, CONNECT, a
// request without Host. Resolves with the parsed answer once the server closes the
// socket (or `closeAfterMs` passes, reported as `closedByServer: false`).
import { readdirSync } from "node:fs";
import net from "node:net";

export interface SocketAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after answering (nothing left open). */
  closedByServer: boolean;
}

export function exchange(port: number, request: string | Buffer, closeAfterMs = 10_000): Promise<SocketAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const timer = setTimeout(() => socket.destroy(), closeAfterMs);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => (closedByServer = true));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      if (split < 0)
        return reject(new Error(`no complete answer (${text.length} bytes: ${JSON.stringify(text.slice(0, 80))})`));
      const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: text.slice(split + 4), closedByServer });
    });
    socket.write(request);
  });
}

/** An upgrade request for `path`, a valid WebSocket handshake unless `headers` change it. */
export function upgradeRequest(path: string, headers: Record<string, string | null> = {}): string {
  const all: Record<string, string | null> = {
    host: "127.0.0.1",
    connection: "Upgrade",
    upgrade: "websocket",
    "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
    "sec-websocket-version": "13",
    ...headers,
  };
  const lines = Object.entries(all).flatMap(([name, value]) => (value === null ? [] : [`${name}: ${value}`]));
  return `GET ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`;
}

/** Open file descriptors of a process (Linux). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}
