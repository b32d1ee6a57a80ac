// The two error renderers: the session/dashboard API's `{error: {code, message}}`
// and the model API's OpenAI envelope. Unknown errors become a generic 500 that
// names the request id; the cause goes to the log only.
import { AppError, isAppError } from "@/lib/api/errors";
import { getLogger } from "@/lib/logger";

export type Surface = "api" | "openai";

const OPENAI_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  409: "invalid_request_error",
  413: "invalid_request_error",
  426: "invalid_request_error",
  429: "rate_limit_error",
};

/**
 * Prisma's "record not found" and "unique constraint" request errors, matched
 * by shape (not instanceof: bundles may hold several copies of the client).
 */
function fromPrismaError(error: unknown): AppError | null {
  const candidate = error as {
    name?: unknown;
    code?: unknown;
    meta?: { modelName?: unknown; target?: unknown };
  } | null;
  if (typeof candidate !== "object" || candidate === null || candidate.name !== "PrismaClientKnownRequestError")
    return null;
  const model = typeof candidate.meta?.modelName === "string" ? candidate.meta.modelName : "Record";
  switch (candidate.code) {
    case "P2025":
    case "P2001":
      return new AppError("not_found", `${model} not found`, { cause: error });
    case "P2002":
      return new AppError("conflict", `${model} already exists (unique constraint)`, { cause: error });
    default:
      return null;
  }
}

export function toAppError(error: unknown, requestId: string): AppError {
  if (isAppError(error)) return error;
  const fromPrisma = fromPrismaError(error);
  if (fromPrisma) return fromPrisma;
  getLogger().error({ err: error, requestId }, "unhandled error");
  return new AppError("internal", `Internal server error (request ${requestId})`);
}

// Retry hints for generated SDKs (Stainless retries 409 and 5xx unless told
// not to): these answers come back the same however often they are retried.
const NEVER_RETRY = new Set([400, 401, 403, 404, 405, 409, 413, 422, 426, 501]);
const RETRY_LATER = new Set([429, 503]);
const DEFAULT_RETRY_AFTER_SECONDS = "1";

function retryHeaders(error: AppError): Record<string, string> {
  // A spent budget stays spent until someone raises it or the month ends.
  if (error.openaiType === "insufficient_quota") return { "x-should-retry": "false" };
  if (NEVER_RETRY.has(error.status)) return { "x-should-retry": "false" };
  if (RETRY_LATER.has(error.status)) {
    // An error that set its own retry-after keeps it (it is spread after these).
    const given = Object.keys(error.headers ?? {}).some((name) => name.toLowerCase() === "retry-after");
    return given
      ? { "x-should-retry": "true" }
      : { "x-should-retry": "true", "retry-after": DEFAULT_RETRY_AFTER_SECONDS };
  }
  return {};
}

export function errorBody(error: AppError, surface: Surface): unknown {
  if (surface === "openai") {
    return {
      error: {
        message: error.message,
        type: error.openaiType ?? OPENAI_TYPES[error.status] ?? "server_error",
        param: error.param ?? null,
        code: error.detail ?? error.code,
      },
    };
  }
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.param ? { param: error.param } : {}),
    },
  };
}

/** An error as status, headers and JSON text, for responses built without the Web Response (the /v1 fast path). */
export function renderError(
  error: unknown,
  surface: Surface,
  requestId: string,
): { status: number; headers: Record<string, string>; body: string } {
  const appError = toAppError(error, requestId);
  if (appError.status >= 500 && isAppError(error)) {
    getLogger().warn({ code: appError.code, message: appError.message, requestId }, "server-side failure");
  }
  return {
    status: appError.status,
    headers: {
      "content-type": "application/json",
      "x-request-id": requestId,
      ...retryHeaders(appError),
      ...appError.headers,
    },
    body: JSON.stringify(errorBody(appError, surface)),
  };
}

export function errorResponse(error: unknown, surface: Surface, requestId: string): Response {
  const { status, headers, body } = renderError(error, surface, requestId);
  return new Response(body, { status, headers });
}
