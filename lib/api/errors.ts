// One error type for the whole app. A code from a closed list decides the
// HTTP status; the surface that renders it decides the body shape.

export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  upgrade_required: 426,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  upstream_error: 502,
  unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface AppErrorOptions {
  /** The request field the error is about (`display.width`). */
  param?: string;
  /** A finer, client-facing code (`invalid_api_key`, `model_not_found`). */
  detail?: string;
  /** Extra response headers (`retry-after`). */
  headers?: Record<string, string>;
  /** The OpenAI envelope's `type` when the status's default does not fit (`insufficient_quota`, never retried). */
  openaiType?: string;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly param?: string;
  readonly detail?: string;
  readonly headers?: Record<string, string>;
  readonly openaiType?: string;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.param = options.param;
    this.detail = options.detail;
    this.headers = options.headers;
    this.openaiType = options.openaiType;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * Structural, not `instanceof`: Next can bundle this module into several
 * chunks, and an AppError made by one copy must still render as itself.
 */
export function isAppError(value: unknown): value is AppError {
  if (value instanceof AppError) return true;
  const candidate = value as { name?: unknown; code?: unknown } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    candidate.name === "AppError" &&
    typeof candidate.code === "string" &&
    Object.hasOwn(ERROR_STATUS, candidate.code)
  );
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
