// The egress proxy of one browser context: Chromium sends every request of the
// context here (Playwright's per-context `proxy`, loopback included through the
// `<-loopback>` bypass rule), and this proxy resolves the name itself, asks the
// EgressPolicy about the address it resolved to, and connects to that very address.
// So a name that rebinds to 127.0.0.1, a redirect to the metadata address, a fetch
// or a WebSocket (Chromium tunnels them with CONNECT) get the policy's answer, and a
// refused navigation can be named to the client (`problemSince`).
//
// One listener per context, on 127.0.0.1 with a port of its own, so a refusal is
// attributed to its session without proxy authentication.
import dns from "node:dns/promises";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import type { EgressPolicy } from "@/lib/computers/egress/policy";
import { chromiumError, connectTo, parseUpstreamUrl, tunnelVia, type Upstream } from "@/lib/computers/egress/upstream";

/**
 * Set on the proxy's own answers, so a navigation can tell them from a site's: the
 * policy's reason on a refusal (403), Chromium's name for a failed connection (502).
 */
export const REFUSAL_HEADER = "x-cabin-egress-refused";
export const FAILURE_HEADER = "x-cabin-egress-failed";
const REQUEST_TIMEOUT_MS = 15_000;

/** What went wrong last, as the navigation reports it: the policy's reason, or Chromium's error name. */
export type EgressProblem = { kind: "refused"; reason: string } | { kind: "failed"; error: string };

type Resolved = { ip: string } | { problem: EgressProblem };
type Route = Resolved | { via: Upstream };

export class EgressProxy {
  private readonly sockets = new Set<net.Socket>();
  /** Chromium's sockets that became CONNECT tunnels: bound to the route they were opened on. */
  private readonly tunnels = new Set<net.Socket>();
  private problemCount = 0;
  private lastProblem: EgressProblem | null = null;
  private upstream: Upstream | null = null;

  private constructor(
    private readonly server: http.Server,
    private readonly policy: EgressPolicy,
  ) {}

  static async start(policy: EgressPolicy): Promise<EgressProxy> {
    const server = http.createServer();
    const proxy = new EgressProxy(server, policy);
    server.on("request", (req, res) => void proxy.forward(req, res));
    server.on("connect", (req, socket: net.Socket, head) => void proxy.tunnel(req, socket, head));
    server.on("connection", (socket: net.Socket) => {
      proxy.sockets.add(socket);
      socket.on("close", () => proxy.sockets.delete(socket));
    });
    // Chromium's own sockets to us: no timeout (a WebSocket may idle for hours); the far side's errors end them.
    server.requestTimeout = 0;
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  /** What Playwright's `proxy` option takes: this listener, with Chromium's implicit loopback bypass removed. */
  get chromiumProxy(): { server: string; bypass: string } {
    return { server: `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`, bypass: "<-loopback>" };
  }

  /** A mark to pass to `problemSince` later. */
  mark(): number {
    return this.problemCount;
  }

  /** The latest refusal or failed connection after `mark`, if any. */
  problemSince(mark: number): EgressProblem | null {
    return this.problemCount > mark ? this.lastProblem : null;
  }

  /**
   * From now on, sends this context's traffic through the HTTP proxy `proxyUrl` (null:
   * direct again). The proxy's address must pass the policy; names are then resolved by
   * that proxy. Tunnels were opened on the old route, so they are closed (Chromium opens
   * new ones); plain-http sockets stay, as each request on them is routed when it comes
   * (closing them made Chromium's next request on a pooled one fail now and then).
   * Returns the problem instead when the proxy cannot be used.
   */
  async setUpstream(proxyUrl: string | null): Promise<EgressProblem | null> {
    let next: Upstream | null = null;
    if (proxyUrl !== null) {
      const { host, port, authorization, label } = parseUpstreamUrl(proxyUrl);
      const resolved = await this.resolve(host, port);
      if ("problem" in resolved) return resolved.problem;
      next = { ip: resolved.ip, port, authorization, label };
    }
    this.upstream = next;
    for (const socket of this.tunnels) socket.destroy();
    return null;
  }

  /** The upstream proxy in use (without credentials), or null when direct. */
  get upstreamLabel(): string | null {
    return this.upstream?.label ?? null;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private note(problem: EgressProblem): { problem: EgressProblem } {
    this.problemCount++;
    this.lastProblem = problem;
    return { problem };
  }

  /** The address to connect to for `host`, if the policy allows it. */
  private async resolve(host: string, port: number): Promise<Resolved> {
    const name = host.replace(/^\[|\]$/g, "");
    let ip = name;
    if (!net.isIP(name)) {
      try {
        ip = (await dns.lookup(name)).address;
      } catch (err) {
        return this.note({ kind: "failed", error: chromiumError(err) });
      }
    }
    return this.check(name, ip, port);
  }

  private check(name: string, ip: string, port: number): Resolved {
    const decision = this.policy.check({ host: name.toLowerCase(), ip, port });
    return decision.allowed ? { ip } : this.note({ kind: "refused", reason: decision.reason.replace(/[\r\n]/g, " ") });
  }

  /**
   * Where a connection to `host:port` goes: the upstream proxy (address literals still checked here), or the checked
   * address.
   */
  private async route(host: string, port: number): Promise<Route> {
    if (!this.upstream) return this.resolve(host, port);
    const name = host.replace(/^\[|\]$/g, "");
    const checked = net.isIP(name) ? this.check(name, name, port) : null;
    return checked && "problem" in checked ? checked : { via: this.upstream };
  }

  /** CONNECT host:port (https, wss, ws): a tunnel to the checked address, or through the upstream proxy. */
  private async tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer) {
    client.on("error", () => {});
    const target = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? "");
    if (!target) return void client.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
    const port = Number(target[2]);
    const route = await this.route(target[1], port);
    if ("problem" in route)
      return void client.end(`HTTP/1.1 ${statusLine(route.problem)}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    let upstream: net.Socket;
    // Bytes the upstream proxy sent after its 200 belong to the client.
    let early: Buffer = Buffer.alloc(0);
    try {
      if ("via" in route) {
        const tunnel = await tunnelVia(route.via, target[1].replace(/^\[|\]$/g, ""), port);
        upstream = tunnel.socket;
        early = tunnel.rest;
      } else {
        upstream = await connectTo(route.ip, port);
      }
    } catch (err) {
      const { problem } = this.note({ kind: "failed", error: chromiumError(err) });
      return void client.end(`HTTP/1.1 ${statusLine(problem)}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    }
    if (client.destroyed) return void upstream.destroy();
    this.tunnels.add(client);
    client.once("close", () => this.tunnels.delete(client));
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (early.length) client.write(early);
    if (head.length) upstream.write(head);
    upstream.pipe(client).pipe(upstream);
    upstream.on("error", () => client.destroy());
    upstream.once("close", () => client.destroy());
    client.once("close", () => upstream.destroy());
  }

  /** A plain-http request in absolute form (`GET http://host/path`): sent on to the checked address. */
  private async forward(req: http.IncomingMessage, res: http.ServerResponse) {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
      if (url.protocol !== "http:") throw new Error(url.protocol);
    } catch {
      return void res.writeHead(400, { connection: "close" }).end();
    }
    const port = Number(url.port || 80);
    const route = await this.route(url.hostname, port);
    if ("problem" in route) return void answerProblem(res, route.problem);
    const headers = { ...req.headers };
    for (const name of Object.keys(headers)) if (name.startsWith("proxy-")) delete headers[name];
    // Through a proxy the request keeps its absolute form and carries the proxy's credentials.
    const via = "via" in route ? route.via : null;
    if (via?.authorization) headers["proxy-authorization"] = via.authorization;
    const next =
      "via" in route
        ? { host: route.via.ip, port: route.via.port, path: req.url }
        : { host: route.ip, port, path: `${url.pathname}${url.search}` };
    const upstream = http.request({
      ...next,
      method: req.method,
      headers,
      setHost: false,
      timeout: REQUEST_TIMEOUT_MS,
    });
    upstream.once("response", (answer) => {
      upstream.setTimeout(0);
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.once("timeout", () => upstream.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    upstream.once("error", (err) => {
      if (res.headersSent) return void res.destroy();
      const error = via ? chromiumError(Object.assign(err, { code: "PROXY_UNREACHABLE" })) : chromiumError(err);
      answerProblem(res, this.note({ kind: "failed", error }).problem);
    });
    res.once("close", () => upstream.destroy());
    req.pipe(upstream);
  }
}

function statusLine(problem: EgressProblem): string {
  return problem.kind === "refused"
    ? `403 Forbidden\r\n${REFUSAL_HEADER}: ${problem.reason}`
    : `502 Bad Gateway\r\n${FAILURE_HEADER}: ${problem.error}`;
}

/** The proxy's own page for a plain-http request it could not send on. */
function answerProblem(res: http.ServerResponse, problem: EgressProblem) {
  const refused = problem.kind === "refused";
  const text = refused ? `Cabin refused this request: ${problem.reason}.` : `The connection failed (${problem.error}).`;
  res
    .writeHead(refused ? 403 : 502, {
      "content-type": "text/html; charset=utf-8",
      connection: "close",
      ...(refused ? { [REFUSAL_HEADER]: problem.reason } : { [FAILURE_HEADER]: problem.error }),
    })
    .end(`<!doctype html><title>${refused ? "Blocked" : "Connection failed"}</title><p>${escapeHtml(text)}</p>`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}
