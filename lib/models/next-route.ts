// A /v1 handler as a Next route handler: app/v1/**/route.ts serve the model
// API through Next's router in development (production goes through the fast
// path in lib/models/fast-path.ts, which calls the same handlers).
import { flatParams, type NextRouteContext } from "@/lib/api/handlers";
import { requestIdOf } from "@/lib/api/request";
import { MAX_BODY_BYTES, tooLarge, type ModelHandler } from "@/lib/models/http";

async function boundedText(req: Request): Promise<string> {
  if (Number(req.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  return text;
}

export function nextRoute(handler: ModelHandler) {
  return async (req: Request, route?: NextRouteContext): Promise<Response> => {
    const reply = await handler(
      {
        method: req.method,
        pathname: new URL(req.url).pathname,
        requestId: requestIdOf(req),
        header: (name) => req.headers.get(name),
        text: () => boundedText(req),
        signal: req.signal,
      },
      await flatParams(route),
    );
    // The reply already carries x-request-id (withModelApi, or the rendered error).
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}
