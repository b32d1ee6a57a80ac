// Upstream failures in the OpenAI envelope. The client's own mistakes that the
// upstream caught (400, 429) keep their status and message; everything else is
// the gateway's problem (bad upstream credentials, a 5xx, no answer): 502/504.
import { AppError } from "@/lib/api/errors";
import type { UpstreamResponse } from "@/lib/models/upstream/http-client";

const MAX_ERROR_BODY = 4096;

async function upstreamMessage(res: UpstreamResponse): Promise<{ message?: string; param?: string; code?: string }> {
  try {
    const text = await res.text(MAX_ERROR_BODY);
    const body = JSON.parse(text) as {
      error?: { message?: string; param?: string | null; code?: string | null } | string;
    };
    if (typeof body.error === "string") return { message: body.error };
    return { message: body.error?.message, param: body.error?.param ?? undefined, code: body.error?.code ?? undefined };
  } catch {
    return {};
  }
}

export async function upstreamHttpError(res: UpstreamResponse, modelId: string): Promise<AppError> {
  return upstreamStatusError(res.status, await upstreamMessage(res), modelId, res.header("retry-after"));
}

/** One classification for every backend: an upstream's status and its own message, in Cabin's terms. */
export function upstreamStatusError(
  status: number,
  { message, param, code }: { message?: string; param?: string; code?: string },
  modelId: string,
  retryAfter: string | undefined,
): AppError {
  const what = message ? `: ${message}` : "";
  if (status === 400 || status === 422) {
    return new AppError("invalid_request", `The upstream for ${modelId} refused the request${what}`, {
      param,
      detail: code ?? "invalid_request",
    });
  }
  if (status === 429) {
    return new AppError("rate_limited", `The upstream for ${modelId} is rate limiting${what}`, {
      detail: "upstream_rate_limited",
      headers: { "retry-after": retryAfter && /^\d+$/.test(retryAfter) ? retryAfter : "1" },
    });
  }
  return new AppError("upstream_error", `The upstream for ${modelId} answered ${status}${what}`, {
    detail: "upstream_error",
  });
}

export function upstreamNetworkError(modelId: string, cause: unknown): AppError {
  const reason =
    cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
  return new AppError("upstream_error", `The upstream for ${modelId} could not be reached or broke off: ${reason}`, {
    detail: "upstream_error",
    cause,
  });
}

export function upstreamTimeout(modelId: string, timeoutMs: number): AppError {
  return new AppError("upstream_timeout", `The upstream for ${modelId} did not answer within ${timeoutMs} ms`, {
    detail: "upstream_timeout",
  });
}
