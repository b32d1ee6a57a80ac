// The one route table of /v1. Both ways a request arrives read it: the custom
// server's fast path (`modelFastPath`) and Next's catch-all route file (through
// `nextModelRoute`). A new endpoint is one line here; the 405 with its `allow`
// header and the unknown-path 404 are derived from the table, not written per path.
import { methodNotAllowed, unknownPath, type ModelHandler } from "@/lib/models/gateway/http";
import { cancelResponseRoute, createResponseRoute, getResponseRoute } from "@/lib/models/responses/routes";
import {
  chatCompletionsRoute,
  completionsRoute,
  embeddingsRoute,
  getModelRoute,
  listModelsRoute,
} from "@/lib/models/gateway/routes";

/** The methods the table answers; others (HEAD, OPTIONS) are left to Next's defaults on the catch-all route. */
export const MODEL_API_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ModelApiMethod = (typeof MODEL_API_METHODS)[number];

interface ModelRoute {
  /** A literal path, or a prefix ending in `/` whose (non-empty) rest is the parameter `param`. */
  path: string;
  param?: string;
  /** With `param`: the path ends in this, and the parameter is what lies between. */
  suffix?: string;
  methods: Partial<Record<ModelApiMethod, ModelHandler>>;
}

const ROUTES: ModelRoute[] = [
  { path: "/v1/models", methods: { GET: listModelsRoute } },
  // Model ids may contain "/" (upstream names), so the whole rest of the path is the id.
  { path: "/v1/models/", param: "id", methods: { GET: getModelRoute } },
  { path: "/v1/chat/completions", methods: { POST: chatCompletionsRoute } },
  { path: "/v1/completions", methods: { POST: completionsRoute } },
  { path: "/v1/embeddings", methods: { POST: embeddingsRoute } },
  { path: "/v1/responses", methods: { POST: createResponseRoute } },
  // Before the plain id route, which would otherwise take "<id>/cancel" as the id.
  { path: "/v1/responses/", param: "id", suffix: "/cancel", methods: { POST: cancelResponseRoute } },
  { path: "/v1/responses/", param: "id", methods: { GET: getResponseRoute } },
];

export interface ResolvedModelRoute {
  handler: ModelHandler;
  params: Record<string, string>;
}

// One 405 handler per route, built once: the allow header lists the methods the route has.
const NOT_ALLOWED = new Map(ROUTES.map((route) => [route, methodNotAllowed(Object.keys(route.methods).join(", "))]));

const isModelApiMethod = (method: string): method is ModelApiMethod =>
  (MODEL_API_METHODS as readonly string[]).includes(method);

/** A percent-encoded path part; malformed encodings are taken as they are (and then not found). */
function decodePathPart(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function match(route: ModelRoute, pathname: string): Record<string, string> | null {
  if (!route.param) return pathname === route.path ? {} : null;
  const suffix = route.suffix ?? "";
  if (
    !pathname.startsWith(route.path) ||
    !pathname.endsWith(suffix) ||
    pathname.length <= route.path.length + suffix.length
  )
    return null;
  return { [route.param]: decodePathPart(pathname.slice(route.path.length, pathname.length - suffix.length)) };
}

/**
 * The handler for a request under /v1: the route's own, its 405, or the
 * unknown-path 404. Null for paths outside /v1 and methods the table leaves to Next.
 */
export function resolveModelRoute(method: string, pathname: string): ResolvedModelRoute | null {
  if (!isModelApiMethod(method) || (pathname !== "/v1" && !pathname.startsWith("/v1/"))) return null;
  for (const route of ROUTES) {
    const params = match(route, pathname);
    if (!params) continue;
    return { handler: route.methods[method] ?? NOT_ALLOWED.get(route)!, params };
  }
  return { handler: unknownPath, params: {} };
}

/**
 * Every route as an OpenAPI path template (`/v1/models/{id}`) with its methods: the OpenAPI document must cover each.
 */
export function modelRouteList(): { path: string; methods: ModelApiMethod[] }[] {
  return ROUTES.map((route) => ({
    path: route.param ? `${route.path}{${route.param}}${route.suffix ?? ""}` : route.path,
    methods: Object.keys(route.methods) as ModelApiMethod[],
  }));
}
