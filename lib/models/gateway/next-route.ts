// /v1 through Next's router: the catch-all route file exports `nextModelRoute`
// for every method. It resolves through the same route table as the custom
// server's fast path (`resolveModelRoute`), so development serves exactly
// what production serves.
import { unknownPath } from "@/lib/models/gateway/http";
import { resolveModelRoute } from "@/lib/models/gateway/route-table";
import { toModelHttpRequest, webBodyStream } from "@/lib/models/gateway/transport";

export async function nextModelRoute(req: Request): Promise<Response> {
  const pathname = new URL(req.url).pathname;
  // Next answers HEAD with the GET handler's headers and no body.
  const method = req.method === "HEAD" ? "GET" : req.method;
  const route = resolveModelRoute(method, pathname) ?? { handler: unknownPath, params: {} };
  const reply = await route.handler(
    toModelHttpRequest({
      method: req.method,
      pathname,
      header: (name) => req.headers.get(name),
      body: () => webBodyStream(req.body),
      signal: req.signal,
    }),
    route.params,
  );
  // The reply already carries x-request-id (withModelApi, publicModelApi, or the rendered error).
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
