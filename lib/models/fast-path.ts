// A direct path for /v1 from the custom server, skipping Next's router (which
// costs several milliseconds per request: too much for a gateway whose budget
// is ~2 ms). It runs the very same handlers as app/v1/**/route.ts, adapting the
// Node request to ModelHttpRequest and writing the ModelReply straight to the
// socket, streams chunk by chunk. The custom server consults `httpHandlersKey`
// before Next; without that hook Next serves /v1 through the route files.
import type { IncomingMessage, ServerResponse } from "node:http";
import { requestIdFrom } from "@/lib/api/request";
import { getLogger } from "@/lib/logger";
import { httpHandlersKey, type HttpHandler } from "@/lib/process-handles";
import { singleton } from "@/lib/singleton";
import { MAX_BODY_BYTES, tooLarge, type ModelHandler, type ModelHttpRequest } from "@/lib/models/http";
import {
  chatCompletionsRoute,
  completionsRoute,
  embeddingsRoute,
  getModelRoute,
  listModelsRoute,
  postOnly,
  unknownPath,
} from "@/lib/models/routes";

const POST_ROUTES: Record<string, ModelHandler> = {
  "/v1/chat/completions": chatCompletionsRoute,
  "/v1/completions": completionsRoute,
  "/v1/embeddings": embeddingsRoute,
};
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

function resolveRoute(method: string, pathname: string): { handler: ModelHandler; params: Record<string, string> } | null {
  if (!METHODS.has(method) || (pathname !== "/v1" && !pathname.startsWith("/v1/"))) return null;
  const post = POST_ROUTES[pathname];
  if (post) return { handler: method === "POST" ? post : postOnly, params: {} };
  if (method === "GET" && pathname === "/v1/models") return { handler: listModelsRoute, params: {} };
  if (method === "GET" && pathname.startsWith("/v1/models/") && pathname.length > "/v1/models/".length) {
    return { handler: getModelRoute, params: { id: decodePathPart(pathname.slice("/v1/models/".length)) } };
  }
  return { handler: unknownPath, params: {} };
}

/** A percent-encoded path part; malformed encodings are taken as they are (and then not found). */
function decodePathPart(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The request body as text, read with events (a stream iterator would cost a promise per chunk). */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners("data");
        req.resume();
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

function modelRequest(req: IncomingMessage, pathname: string, signal: AbortSignal): ModelHttpRequest {
  return {
    method: req.method ?? "GET",
    pathname,
    requestId: requestIdFrom(req.headers["x-request-id"] as string | undefined),
    header: (name) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    text: () => readBody(req),
    signal,
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, pathname: string, route: { handler: ModelHandler; params: Record<string, string> }) {
  const controller = new AbortController();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  // The client left before the end: abort the request (stops generation) and the body.
  res.on("close", () => {
    if (res.writableFinished) return;
    controller.abort();
    void reader?.cancel().catch(() => {});
  });
  try {
    const reply = await route.handler(modelRequest(req, pathname, controller.signal), route.params);
    res.statusCode = reply.status;
    for (const name in reply.headers) res.setHeader(name, reply.headers[name]!);
    // A complete body (JSON) or none: headers and body leave in one write.
    if (reply.body === null || typeof reply.body === "string") return void res.end(reply.body ?? undefined);
    // A stream: each chunk is written as it comes (the first one carries the headers).
    reader = reply.body.getReader();
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
  void serve(req, res, pathname, route);
  return true;
};

/** Offers the fast path to server.ts (idempotent across dev reloads). */
export function registerModelFastPath() {
  const handlers = singleton(httpHandlersKey, (): HttpHandler[] => []);
  const existing = handlers.findIndex((h) => (h as { cabinName?: string }).cabinName === "models");
  const named = Object.assign((req: IncomingMessage, res: ServerResponse) => modelFastPath(req, res), { cabinName: "models" });
  if (existing >= 0) handlers[existing] = named;
  else handlers.push(named);
}
