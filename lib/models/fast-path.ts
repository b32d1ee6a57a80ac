// A direct path for /v1 from the custom server, skipping Next's router (which
// costs several milliseconds per request: too much for a gateway whose budget
// is ~2 ms). It runs the very same handlers as app/v1/**/route.ts, converting
// the Node request to a Web Request and the Web Response back, streaming
// bodies chunk by chunk. server.ts consults `globalThis.cabinHttpHandlers`
// before Next; without that hook Next serves /v1 through the route files.
import type { IncomingMessage, ServerResponse } from "node:http";
import { getLogger } from "@/lib/logger";
import {
  chatCompletionsRoute,
  completionsRoute,
  embeddingsRoute,
  getModelRoute,
  listModelsRoute,
  postOnly,
  unknownPath,
} from "@/lib/models/routes";

type RouteHandler = (req: Request, route?: { params: Promise<Record<string, string>> }) => Promise<Response>;
type HttpHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const POST_ROUTES: Record<string, RouteHandler> = {
  "/v1/chat/completions": chatCompletionsRoute,
  "/v1/completions": completionsRoute,
  "/v1/embeddings": embeddingsRoute,
};
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// Not forwarded into the Web Request: they describe the Node connection, not the request.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "upgrade", "expect", "te", "trailer"]);

function resolveRoute(method: string, pathname: string): { handler: RouteHandler; params: Record<string, string> } | null {
  if (!METHODS.has(method) || (pathname !== "/v1" && !pathname.startsWith("/v1/"))) return null;
  const post = POST_ROUTES[pathname];
  if (post) return { handler: method === "POST" ? post : postOnly[method as keyof typeof postOnly], params: {} };
  if (method === "GET" && pathname === "/v1/models") return { handler: listModelsRoute, params: {} };
  if (method === "GET" && pathname.startsWith("/v1/models/") && pathname.length > "/v1/models/".length) {
    return { handler: getModelRoute, params: { id: decodeURIComponent(pathname.slice("/v1/models/".length)) } };
  }
  return { handler: unknownPath, params: {} };
}

function toWebHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

async function serve(req: IncomingMessage, res: ServerResponse, route: { handler: RouteHandler; params: Record<string, string> }) {
  const controller = new AbortController();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  // The client left before the end: abort the request (stops generation) and the body.
  res.on("close", () => {
    if (res.writableFinished) return;
    controller.abort();
    void reader?.cancel().catch(() => {});
  });
  try {
    const chunks: Buffer[] = [];
    if (req.method !== "GET") for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
      method: req.method,
      headers: toWebHeaders(req),
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      signal: controller.signal,
    });
    const response = await route.handler(request, { params: Promise.resolve(route.params) });
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    if (!response.body) return void res.end();
    reader = response.body.getReader();
    if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
      // A complete body (JSON): headers and body leave in one write.
      const chunks: Uint8Array[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
      return void res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    }
    // A stream: each chunk is written as it comes (the first one carries the headers).
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // Backpressure: wait for a slow client instead of buffering the stream in memory.
      if (!res.write(value)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
      if (res.destroyed) return;
    }
    res.end();
  } catch (err) {
    if (controller.signal.aborted) return;
    getLogger().error({ err, url: req.url }, "model API fast path failed");
    if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ error: { message: "Internal server error", type: "server_error", param: null, code: "internal" } }));
    } else {
      res.destroy();
    }
  }
}

export const modelFastPath: HttpHandler = (req, res) => {
  const pathname = (req.url ?? "/").split("?")[0]!;
  const route = resolveRoute(req.method ?? "GET", pathname);
  if (!route) return false;
  void serve(req, res, route);
  return true;
};

/** Offers the fast path to server.ts (idempotent across dev reloads). */
export function registerModelFastPath() {
  const g = globalThis as unknown as { cabinHttpHandlers?: HttpHandler[] };
  const handlers = (g.cabinHttpHandlers ??= []);
  const existing = handlers.findIndex((h) => (h as { cabinName?: string }).cabinName === "models");
  const named = Object.assign((req: IncomingMessage, res: ServerResponse) => modelFastPath(req, res), { cabinName: "models" });
  if (existing >= 0) handlers[existing] = named;
  else handlers.push(named);
}
