// The one translation of driver and manager failures for the session API.
// Drivers throw ActionError and the manager an
// AppError or an ActionError; endpoints where a failure is an HTTP error use
// `asAppError`, and the action endpoints (/execute, /batch, the named actions),
// where an action that ran and failed is a 200 with status "error", use
// `asActionResult`. Both apply the "session is ending" rule first: whatever a
// dying computer threw, the client learns that the session ended (409).
import { AppError, isAppError } from "@/lib/api/errors";
import { getEnv } from "@/lib/env";
import { isActionError } from "@/lib/computers/actions/action-error";

/** The body of every action answer (docs/contract.md "Actions"). */
export type ActionResult = {
  status: "success" | "error";
  error_message?: string;
  request_id: string;
  executed_tab_id?: string;
  timestamp: string;
  result?: Record<string, unknown>;
  page_context?: unknown;
};

/** The part of a LiveSession the mapping reads. */
export interface EndingProbe {
  id: string;
  ending: Promise<void> | null;
}

export function terminatedError(row: { id: string; terminationReason: string | null }): AppError {
  return new AppError(
    "conflict",
    `Session '${row.id}' is terminated (${row.terminationReason ?? "ended"}); create a new session`,
    { detail: "session_terminated" },
  );
}

/** Removes the upstream proxy's credentials from any text bound for a client or a log. */
export function scrubSecrets(text: string): string {
  const raw = getEnv().ADVANCED_PROXY_URL;
  if (!raw) return text;
  let out = text.replaceAll(raw, "[proxy]");
  try {
    const url = new URL(raw);
    for (const secret of [
      url.password,
      decodeURIComponent(url.password),
      url.username,
      decodeURIComponent(url.username),
    ]) {
      if (secret && secret.length >= 3) out = out.replaceAll(secret, "[redacted]");
    }
  } catch {
    // not a URL: nothing more to scrub
  }
  return out;
}

export function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

function endedWhileRunning(live: EndingProbe | undefined): AppError | null {
  return live?.ending ? terminatedError({ id: live.id, terminationReason: "ended while the action ran" }) : null;
}

/**
 * Any failure of a session operation as the AppError to answer with. ActionError
 * reasons map to statuses as documented on ActionErrorReason; `failed` is a 502
 * whose detail (`failedDetail`) names the operation; anything else is a 500.
 */
export function asAppError(err: unknown, live?: EndingProbe, failedDetail = "action_failed"): AppError {
  const ended = endedWhileRunning(live);
  if (ended) return ended;
  if (isActionError(err)) {
    const message = scrubSecrets(err.message);
    switch (err.reason) {
      case "invalid":
      case "not_supported":
      case "wrong_kind":
        return new AppError("invalid_request", message, { param: err.param, detail: err.reason });
      case "last_tab":
        return new AppError("conflict", message, { param: err.param, detail: "last_tab" });
      case "conflict":
        return new AppError("conflict", message, { param: err.param, detail: "conflict" });
      case "tab_not_found":
        return new AppError("not_found", message, { param: err.param ?? "tab_id", detail: "tab_not_found" });
      case "failed":
        return new AppError("upstream_error", message, { param: err.param, detail: failedDetail });
    }
  }
  if (err instanceof AppError) return err;
  if (isAppError(err)) {
    // An AppError from another copy of the module (another Next bundle): rebuild it as ours.
    return new AppError(err.code, err.message, { param: err.param, detail: err.detail, headers: err.headers });
  }
  return new AppError("internal", scrubSecrets(`Session operation failed: ${firstLine(err)}`));
}

/**
 * A failure of one action as its ActionResult: an action that ran and failed
 * (`failed`, or a tab that is not there) is status "error"; every other failure
 * is not the action's result but the request's, and is thrown as asAppError's.
 */
export function asActionResult(err: unknown, call: { requestId: string }, live?: EndingProbe): ActionResult {
  if (!endedWhileRunning(live) && isActionError(err) && (err.reason === "failed" || err.reason === "tab_not_found")) {
    return {
      status: "error",
      error_message: scrubSecrets(err.message),
      request_id: call.requestId,
      timestamp: new Date().toISOString(),
    };
  }
  throw asAppError(err, live);
}
