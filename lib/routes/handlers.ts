// Route-handler wrappers, one per audience. Each resolves who is calling,
// runs the handler, renders any error for its surface and stamps the request
// id on the response. Handlers stay thin: parse, call lib/, return.
import { AppError } from "@/lib/api/errors";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { errorResponse, type Surface } from "@/lib/api/render";
import { requestIdOf } from "@/lib/api/request";

export type RouteParams = Record<string, string>;
export type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export interface PublicContext {
  req: Request;
  requestId: string;
  params: RouteParams;
}

export interface ApiKeyContext extends PublicContext {
  principal: ApiPrincipal;
}

type Handler<C> = (ctx: C) => Promise<Response> | Response;

/** Next's route params with catch-all segments joined by "/". */
export async function flatParams(route?: NextRouteContext): Promise<RouteParams> {
  const raw = route ? await route.params : {};
  const out: RouteParams = {};
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join("/") : v;
  }
  return out;
}

function stamp(response: Response, requestId: string): Response {
  try {
    if (!response.headers.has("x-request-id")) response.headers.set("x-request-id", requestId);
    return response;
  } catch {
    // Immutable headers (e.g. a Response.redirect): copy into a new response.
    const copy = new Response(response.body, response);
    copy.headers.set("x-request-id", requestId);
    return copy;
  }
}

/** Wraps a handler with request-id stamping and error rendering, after `resolve` builds its context. */
export function wrap<C extends PublicContext>(
  surface: Surface,
  resolve: (base: PublicContext) => Promise<C>,
  handler: Handler<C>,
) {
  return async (req: Request, route?: NextRouteContext): Promise<Response> => {
    const requestId = requestIdOf(req);
    try {
      const ctx = await resolve({ req, requestId, params: await flatParams(route) });
      return stamp(await handler(ctx), requestId);
    } catch (error) {
      return errorResponse(error, surface, requestId);
    }
  };
}

export function withPublic(surface: Surface, handler: Handler<PublicContext>) {
  return wrap(surface, async (base) => base, handler);
}

/** Bearer API key → organization. Used by /computers (surface "api") and /v1 (surface "openai"). */
export function withApiKey(surface: Surface, handler: Handler<ApiKeyContext>) {
  return wrap(
    surface,
    async (base) => ({
      ...base,
      principal: await authenticateApiKey(base.req.headers.get("authorization")),
    }),
    handler,
  );
}

/**
 * The handler a route file exports for the methods it does not serve, so a
 * wrong method is a JSON 405 with an `allow` header instead of Next's empty
 * one. No key needed: the answer says nothing about any session.
 */
export function methodNotAllowed(allow: readonly string[], surface: Surface = "api") {
  return withPublic(surface, ({ req }) => {
    const path = new URL(req.url).pathname;
    throw new AppError("method_not_allowed", `${req.method} is not allowed on ${path}; use ${allow.join(" or ")}`, {
      detail: "method_not_allowed",
      headers: { allow: allow.join(", ") },
    });
  });
}
