// A forwarding HTTP proxy for the proxy suites, demanding Basic auth (407 first, like
// real ones): absolute-form requests are forwarded, CONNECT is tunnelled; it records
// what it carried (`seen`: request URLs and `CONNECT host:port`).
import { createServer, request, type Server } from "node:http";
import { connect } from "node:net";

export const PROXY_USER = "cabin-proxy-user";
export const PROXY_PASS = "s3cret-proxy-pass";

export interface Proxy {
  port: number;
  seen: string[];
  rejected: number;
  close(): Promise<void>;
}

export async function startProxy(): Promise<Proxy> {
  const seen: string[] = [];
  let rejected = 0;
  const expected = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASS}`).toString("base64")}`;
  const server: Server = createServer((req, res) => {
    if (req.headers["proxy-authorization"] !== expected) {
      rejected++;
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="test"' });
      res.end();
      return;
    }
    seen.push(req.url ?? "");
    const target = new URL(req.url ?? "");
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { ...up.headers, "x-via-test-proxy": "1" });
        up.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  // Tunnels are no longer the server's connections: close() ends them itself.
  const tunnels = new Set<{ destroy(): void }>();
  server.on("connect", (req, socket, head) => {
    socket.on("error", () => {});
    tunnels.add(socket);
    if (req.headers["proxy-authorization"] !== expected) {
      rejected++;
      return void socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="test"\r\ncontent-length: ' +
          "0\r\n\r\n",
      );
    }
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = [
      req.url!.slice(0, req.url!.lastIndexOf(":")),
      Number(req.url!.slice(req.url!.lastIndexOf(":") + 1)),
    ];
    const upstream = connect(port, host.replace(/^\[|\]$/g, ""), () => {
      tunnels.add(upstream);
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on("error", () => socket.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    seen,
    get rejected() {
      return rejected;
    },
    close: () =>
      new Promise((resolve) => {
        for (const tunnel of tunnels) tunnel.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
