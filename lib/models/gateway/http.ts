// The /v1 request layer, whichever way a request arrived: the custom server's
// fast path (`modelFastPath`, production) and Next's catch-all route
// (`nextModelRoute`, development) both adapt to ModelHttpRequest and ModelReply,
// so the gateway's hot path never builds a Web Request or Response (a
// measurable share of its ~2 ms budget). Here: the API key (OpenAI error
// envelope), the organization's rate limit, and x-request-id on every reply;
// x-ratelimit-* on every reply once the key is known, errors included.
import { tooLargeError } from "@/lib/api/edge";
import { AppError, isAppError } from "@/lib/api/errors";
import { renderError } from "@/lib/api/render";
import { parseJsonText, parseWith } from "@/lib/api/request";
import { authenticateApiKey, authenticateApiKeyNow, type ApiPrincipal } from "@/lib/auth/api-keys";
import { getEnv } from "@/lib/env";
import { formatUsd, getBudgetLedger } from "@/lib/models/limits/budget";
import { getKeyRateLimiter, getRateLimiter } from "@/lib/models/limits/rate-limiters";
import type { z } from "zod";
import type { RequestSignal } from "@/lib/models/gateway/request-signal";

/** The one body limit of every surface (MAX_REQUEST_BODY_BYTES; the custom server refuses larger ones first). */
export const MAX_BODY_BYTES = getEnv().MAX_REQUEST_BODY_BYTES;

/** A /v1 request, reduced to what the handlers read. */
export interface ModelHttpRequest {
  method: string;
  pathname: string;
  requestId: string;
  /** A request header by lower-case name. */
  header(name: string): string | null;
  /** The body as text; rejects with a 413 past MAX_BODY_BYTES. */
  text(): Promise<string>;
  /** Aborts when the client goes away. */
  signal: RequestSignal;
}

export interface ModelReply {
  status: number;
  headers: Record<string, string>;
  /** The call's cost in USD when known as the answer leaves (x-cabin-cost-usd says the same on the wire). */
  costUsd?: number;
  /** JSON text, a stream of SSE frames, or nothing. */
  body: string | ReadableStream<Uint8Array> | null;
  /** A JSON answer as the object its text was made from: in-process callers (`respond`) read it unparsed. */
  json?: unknown;
}

export type ModelHandler = (req: ModelHttpRequest, params: Record<string, string>) => Promise<ModelReply>;

/** What an authenticated /v1 handler receives. */
export interface ModelContext {
  req: ModelHttpRequest;
  params: Record<string, string>;
  principal: ApiPrincipal;
}

/**
 * Who a model request is billed to: an API key's organization (/v1), or an
 * organization with no key (apiKeyId null: a member in the dashboard's playground).
 */
export interface ModelPrincipal {
  organizationId: string;
  apiKeyId: string | null;
}

/** What inference code needs of the request; `signal` aborts when the client goes away. */
export interface ModelRequest {
  principal: ModelPrincipal;
  requestId: string;
  signal: RequestSignal;
}

export { getKeyRateLimiter, getRateLimiter };

export const jsonReply = (value: unknown, status = 200): ModelReply => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
  json: value,
});

export const tooLarge = (): AppError => tooLargeError(MAX_BODY_BYTES);

/**
 * The body parsed as JSON and validated; 400 naming the field otherwise.
 * `accept` may take a body the schema certainly accepts, as the schema would
 * return it, without running the schema (`acceptSimpleChatBody`); undefined leaves it to the schema.
 */
export async function readModelBody<T extends z.ZodType>(
  req: ModelHttpRequest,
  schema: T,
  accept?: (body: unknown) => z.infer<T> | undefined,
): Promise<z.infer<T>> {
  const body = parseJsonText(await req.text());
  return accept?.(body) ?? parseWith(schema, body);
}

/** What is left this month under the tighter budget, when the key or its organization has one. */
function budgetHeaders(principal: ApiPrincipal): Record<string, string> {
  const left = getBudgetLedger().remaining(principal);
  return left === null ? {} : { "x-cabin-budget-remaining-usd": formatUsd(left) };
}

/**
 * Admission of one inference call, the same for /v1 and in-process callers (agent tasks): the budgets of the
 * key and its organization, then the key's rate limit and the organization's (a principal without a key,
 * a dashboard member's, has only the organization's). A refusal is an AppError (429 and its kin).
 * Answers at once (no promise) when every check does.
 */
export function admitModelCall(principal: ModelPrincipal): void | Promise<void> {
  const budgetChecked = getBudgetLedger().check(principal);
  return budgetChecked ? budgetChecked.then(() => admitRequest(principal)) : admitRequest(principal);
}

/**
 * Both limits must admit; neither keeps a unit unless both do, so a key held back spends none of its team's.
 * Per-process limiters answer at once, and then so does this (no promise): only shared limiters cost microtasks.
 */
function admitRequest(principal: ModelPrincipal): void | Promise<void> {
  if (principal.apiKeyId === null) return admitOrganization(principal, null);
  const pendingKey = getKeyRateLimiter().reserve(principal.apiKeyId);
  return pendingKey instanceof Promise
    ? pendingKey.then((refusal) => admitOrganization(principal, refusal))
    : admitOrganization(principal, pendingKey);
}

/** The organization's limit, once the key's answered `keyRefusal`; a refusal there gives the key's unit back. */
function admitOrganization(principal: ModelPrincipal, keyRefusal: AppError | null): void | Promise<void> {
  if (keyRefusal) throw keyRefusal;
  const refuse = (orgRefusal: AppError | null) => {
    if (!orgRefusal) return;
    if (principal.apiKeyId !== null) getKeyRateLimiter().release(principal.apiKeyId);
    throw orgRefusal;
  };
  const pendingOrg = getRateLimiter().reserve(principal.organizationId);
  return pendingOrg instanceof Promise ? pendingOrg.then(refuse) : refuse(pendingOrg);
}

function errorReply(error: unknown, requestId: string, extraHeaders: Record<string, string> = {}): ModelReply {
  const rendered = renderError(error, "openai", requestId);
  // The error's own headers (retry-after) win over the rate-limit report.
  return { ...rendered, headers: { ...extraHeaders, ...rendered.headers } };
}

/**
 * `inference` requests count against the limit (429 when over it); `read`
 * requests (model listing) only report it.
 */
export function withModelApi(
  kind: "inference" | "read",
  handler: (ctx: ModelContext) => Promise<ModelReply> | ModelReply,
): ModelHandler {
  return async (req, params) => {
    let org: string | undefined;
    let principal: ApiPrincipal | undefined;
    try {
      // A cached key answers without a promise; awaiting only a promise keeps that path free of microtasks.
      const authenticated = authenticateApiKeyNow(req.header("authorization"));
      principal = authenticated instanceof Promise ? await authenticated : authenticated;
      org = principal.organizationId;
      if (kind === "inference") {
        // Every inference endpoint passes here, so none can spend past a budget.
        const admitted = admitModelCall(principal);
        if (admitted) await admitted;
      }
      const reply = await handler({ req, params, principal });
      Object.assign(reply.headers, getRateLimiter().headers(org), budgetHeaders(principal), {
        "x-request-id": req.requestId,
      });
      return reply;
    } catch (error) {
      return errorReply(
        error,
        req.requestId,
        org && principal ? { ...getRateLimiter().headers(org), ...budgetHeaders(principal) } : {},
      );
    }
  };
}

/**
 * The rate-limit report for a request whose key is optional (unknown paths,
 * wrong methods): the key's organization when the key is valid, else none.
 * A bad key does not turn these answers into a 401; they only lack the headers.
 */
async function rateLimitHeadersIfKeyed(req: ModelHttpRequest): Promise<Record<string, string>> {
  const authorization = req.header("authorization");
  if (!authorization) return {};
  try {
    return getRateLimiter().headers((await authenticateApiKey(authorization)).organizationId);
  } catch (error) {
    if (isAppError(error) && error.code === "unauthorized") return {};
    throw error;
  }
}

/** A /v1 handler that needs no key (unknown paths, wrong methods); errors in the OpenAI envelope. */
export function publicModelApi(handler: (req: ModelHttpRequest) => ModelReply | Promise<ModelReply>): ModelHandler {
  return async (req) => {
    let rateLimit: Record<string, string> = {};
    try {
      rateLimit = await rateLimitHeadersIfKeyed(req);
      const reply = await handler(req);
      Object.assign(reply.headers, rateLimit, { "x-request-id": req.requestId });
      return reply;
    } catch (error) {
      return errorReply(error, req.requestId, rateLimit);
    }
  };
}

/** The handler for the methods a /v1 path does not serve: 405 in the OpenAI envelope, `allowed` in `allow`. */
export function methodNotAllowed(allowed: string): ModelHandler {
  return publicModelApi((req) => {
    throw new AppError("method_not_allowed", `${req.method} is not supported on ${req.pathname}; use ${allowed}`, {
      detail: "method_not_allowed",
      headers: { allow: allowed },
    });
  });
}

/** Any path under /v1 that does not exist: 404 in the OpenAI envelope. */
export const unknownPath = publicModelApi((req) => {
  throw new AppError("not_found", `Unknown path: ${req.method} ${req.pathname}`, { detail: "unknown_url" });
});
