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
  429: "rate_limit_error",
};

export function toAppError(error: unknown, requestId: string): AppError {
  if (isAppError(error)) return error;
  getLogger().error({ err: error, requestId }, "unhandled error");
  return new AppError("internal", `Internal server error (request ${requestId})`);
}

export function errorBody(error: AppError, surface: Surface): unknown {
  if (surface === "openai") {
    return {
      error: {
        message: error.message,
        type: OPENAI_TYPES[error.status] ?? "server_error",
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
export function renderError(error: unknown, surface: Surface, requestId: string): { status: number; headers: Record<string, string>; body: string } {
  const appError = toAppError(error, requestId);
  if (appError.status >= 500 && isAppError(error)) {
    getLogger().warn({ code: appError.code, message: appError.message, requestId }, "server-side failure");
  }
  return {
    status: appError.status,
    headers: { "content-type": "application/json", "x-request-id": requestId, ...appError.headers },
    body: JSON.stringify(errorBody(appError, surface)),
  };
}

export function errorResponse(error: unknown, surface: Surface, requestId: string): Response {
  const { status, headers, body } = renderError(error, surface, requestId);
  return new Response(body, { status, headers });
}
