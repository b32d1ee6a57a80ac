// A direct path for /v1 from the custom server, skipping Next's router (which
// costs several milliseconds per request: too much for a gateway whose budget
// is ~2 ms). It resolves through the same route table as Next's catch-all
// route (`resolveModelRoute`), adapts the Node request with `toModelHttpRequest`
// and writes the ModelReply straight to the socket, streams chunk by chunk.
// Registered only in production (lib/models/start.ts decides); without it Next
// serves /v1 through `nextModelRoute`.
import type { IncomingMessage, ServerResponse } from "node:http";
import { renderError } from "@/lib/api/render";
import { httpHandlersKey, type HttpHandler } from "@/lib/process-handles";
import { getLogger } from "@/lib/logger";
import { CancelSignal } from "@/lib/models/gateway/request-signal";
import { resolveModelRoute, type ResolvedModelRoute } from "@/lib/models/gateway/route-table";
import { toModelHttpRequest } from "@/lib/models/gateway/transport";
import { singleton } from "@/lib/singleton";

function nodeHeader(req: IncomingMessage) {
  return (name: string): string | null => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, pathname: string, route: ResolvedModelRoute) {
  const cancel = new CancelSignal();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  // The client left before the end: abort the request (stops generation) and the body.
  res.on("close", () => {
    if (res.writableFinished) return;
    cancel.abort();
    void reader?.cancel().catch(() => {});
  });
  const request = toModelHttpRequest({
    method: req.method ?? "GET",
    pathname,
    header: nodeHeader(req),
    body: () => req,
    signal: cancel,
  });
  try {
    const reply = await route.handler(request, route.params);
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
    if (cancel.aborted) return;
    if (res.headersSent) {
      getLogger().error({ err, url: req.url, requestId: request.requestId }, "model API stream failed");
      return void res.destroy();
    }
    // The one renderer: the same generic 500 (logged with the request id) as any unknown error.
    const rendered = renderError(err, "openai", request.requestId);
    res.writeHead(rendered.status, rendered.headers).end(rendered.body);
  }
}

export const modelFastPath: HttpHandler = (req, res) => {
  const pathname = (req.url ?? "/").split("?")[0]!;
  const route = resolveModelRoute(req.method ?? "GET", pathname);
  if (!route) return false;
  void serve(req, res, pathname, route);
  return true;
};

/** Offers the fast path to server.ts; idempotent (a dev reload replaces it). */
export function registerModelFastPath() {
  singleton(httpHandlersKey, () => new Map()).set("models", modelFastPath);
}
