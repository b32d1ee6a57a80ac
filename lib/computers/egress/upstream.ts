// Connections an EgressProxy makes: straight to an address it checked, or through the
// upstream proxy a session was switched to (POST /computers/{id}/change-proxy). Errors
// carry a `code` that `chromiumError` names as Chromium would for a direct connection
// or for its own proxy, so a client sees the same net::ERR_* either way.
import net from "node:net";

const CONNECT_TIMEOUT_MS = 15_000;
const MAX_PROXY_HEAD_BYTES = 16 * 1024;

/** An upstream HTTP proxy: its checked address, and credentials sent with every request. */
export interface Upstream {
  ip: string;
  port: number;
  /** `Basic …` from the URL's user and password, if any. */
  authorization?: string;
  /** `http://host:port`, without credentials: what responses and logs may show. */
  label: string;
}

// Node's connection errors, and this module's proxy outcomes, as Chromium names them.
const CHROMIUM_ERRORS: Record<string, string> = {
  ECONNREFUSED: "net::ERR_CONNECTION_REFUSED",
  ECONNRESET: "net::ERR_CONNECTION_RESET",
  ETIMEDOUT: "net::ERR_CONNECTION_TIMED_OUT",
  EHOSTUNREACH: "net::ERR_ADDRESS_UNREACHABLE",
  ENETUNREACH: "net::ERR_ADDRESS_UNREACHABLE",
  ENOTFOUND: "net::ERR_NAME_NOT_RESOLVED",
  EAI_AGAIN: "net::ERR_NAME_NOT_RESOLVED",
  PROXY_UNREACHABLE: "net::ERR_PROXY_CONNECTION_FAILED",
  PROXY_AUTH: "net::ERR_PROXY_AUTH_REQUESTED",
  TUNNEL_REFUSED: "net::ERR_TUNNEL_CONNECTION_FAILED",
};

export function chromiumError(err: unknown): string {
  return CHROMIUM_ERRORS[(err as NodeJS.ErrnoException).code ?? ""] ?? "net::ERR_CONNECTION_FAILED";
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** A socket connected to `ip:port` (rejects with Node's error code, ETIMEDOUT after 15 s). */
export function connectTo(ip: string, port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: ip, port, timeout: CONNECT_TIMEOUT_MS });
    socket.once("connect", () => {
      socket.setTimeout(0);
      socket.removeListener("error", reject);
      resolve(socket);
    });
    socket.once("timeout", () => socket.destroy(withCode("timed out", "ETIMEDOUT")));
    socket.once("error", reject);
  });
}

/** A tunnel to `host:port` through `upstream` (CONNECT), with what the proxy sent after its answer. */
export async function tunnelVia(
  upstream: Upstream,
  host: string,
  port: number,
): Promise<{ socket: net.Socket; rest: Buffer }> {
  let socket: net.Socket;
  try {
    socket = await connectTo(upstream.ip, upstream.port);
  } catch (err) {
    throw withCode(`the proxy ${upstream.label} is unreachable: ${(err as Error).message}`, "PROXY_UNREACHABLE");
  }
  const target = net.isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  const auth = upstream.authorization ? `proxy-authorization: ${upstream.authorization}\r\n` : "";
  socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n${auth}\r\n`);
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const fail = (err: Error) => (socket.destroy(), reject(err));
    const onClose = () => fail(withCode(`the proxy ${upstream.label} closed the connection`, "TUNNEL_REFUSED"));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0)
        return void (
          head.length > MAX_PROXY_HEAD_BYTES && fail(withCode("the proxy's answer is too long", "TUNNEL_REFUSED"))
        );
      socket.removeListener("data", onData);
      socket.removeListener("error", fail);
      socket.removeListener("close", onClose);
      const status = Number(head.toString("latin1", 0, end).split(" ")[1]);
      if (status === 200) return resolve({ socket, rest: head.subarray(end + 4) });
      fail(
        withCode(`the proxy ${upstream.label} answered ${status}`, status === 407 ? "PROXY_AUTH" : "TUNNEL_REFUSED"),
      );
    };
    socket.on("data", onData);
    socket.once("error", fail);
    socket.once("close", onClose);
  });
}

/** `http://user:pass@host:port` → the parts an Upstream needs (the address is checked by the caller). */
export function parseUpstreamUrl(raw: string): { host: string; port: number; authorization?: string; label: string } {
  const url = new URL(raw);
  const user = decodeURIComponent(url.username);
  const authorization = user
    ? `Basic ${Buffer.from(`${user}:${decodeURIComponent(url.password)}`).toString("base64")}`
    : undefined;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: Number(url.port || 80),
    authorization,
    label: `${url.protocol}//${url.host}`,
  };
}
