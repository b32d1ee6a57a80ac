// The /v1 request wrapper: API key (OpenAI error envelope), the organization's
// rate limit, and the x-ratelimit-* headers on every response, errors included.
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { AppError, isAppError } from "@/lib/api/errors";
import { withApiKey, withPublic, type ApiKeyContext } from "@/lib/api/handlers";
import { getEnv } from "@/lib/env";
import { RateLimiter } from "@/lib/models/rate-limit";

const g = globalThis as unknown as { cabinModelRateLimiter?: RateLimiter };

export function getRateLimiter(): RateLimiter {
  if (!g.cabinModelRateLimiter) {
    const env = getEnv();
    g.cabinModelRateLimiter = new RateLimiter({
      requestsPerMinute: env.MODEL_RATE_LIMIT_RPM,
      tokensPerMinute: env.MODEL_RATE_LIMIT_TPM,
    });
  }
  return g.cabinModelRateLimiter;
}

/** What a /v1 handler receives; `signal` aborts when the client goes away. */
export interface ModelRequest {
  principal: ApiPrincipal;
  requestId: string;
  signal: AbortSignal;
}

function withHeaders(error: unknown, headers: Record<string, string>): unknown {
  if (!isAppError(error)) return error;
  return new AppError(error.code, error.message, {
    param: error.param,
    detail: error.detail,
    headers: { ...headers, ...error.headers },
    cause: error.cause,
  });
}

/**
 * `inference` requests count against the limit (429 when over it); `read`
 * requests (model listing) only report it.
 */
export function withModelApi(kind: "inference" | "read", handler: (ctx: ApiKeyContext) => Promise<Response> | Response) {
  return withApiKey("openai", async (ctx) => {
    const limiter = getRateLimiter();
    const org = ctx.principal.organizationId;
    try {
      if (kind === "inference") limiter.admit(org);
      const response = await handler(ctx);
      for (const [name, value] of Object.entries(limiter.headers(org))) response.headers.set(name, value);
      return response;
    } catch (error) {
      throw withHeaders(error, limiter.headers(org));
    }
  });
}

/** Handlers for the methods a /v1 path does not serve: 405 in the OpenAI envelope. */
export function methodsNotAllowed(allowed: string) {
  const handler = withPublic("openai", ({ req }) => {
    throw new AppError("method_not_allowed", `${req.method} is not supported on ${new URL(req.url).pathname}; use ${allowed}`, {
      detail: "method_not_allowed",
      headers: { allow: allowed },
    });
  });
  return { GET: handler, PUT: handler, PATCH: handler, DELETE: handler };
}

/** Any path under /v1 that does not exist: 404 in the OpenAI envelope. */
export const unknownPath = withPublic("openai", ({ req }) => {
  throw new AppError("not_found", `Unknown path: ${req.method} ${new URL(req.url).pathname}`, { detail: "unknown_url" });
});
