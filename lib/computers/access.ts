// How a request reaches a running session: the organization-scoped row (a
// foreign id is 404), the terminated check (409), the host that owns it (one
// lookup, so several hosts can later share a database), then activity.
// Also the one mapping from driver/manager errors to AppError.
import { AppError } from "@/lib/api/errors";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { getEnv } from "@/lib/env";
import { isActionError } from "@/lib/computers/action-error";
import type { ComputerHandle } from "@/lib/computers/driver";
import type { LiveSession } from "@/lib/computers/manager";
import { getSessionManager } from "@/lib/computers/registry";
import * as store from "@/lib/computers/store";

export async function findOwnedComputer(principal: ApiPrincipal, id: string): Promise<store.ComputerRow> {
  const row = await store.findComputer({ id, organizationId: principal.organizationId });
  if (!row) throw new AppError("not_found", `Session '${id}' not found`, { detail: "session_not_found" });
  return row;
}

export function terminatedError(row: { id: string; terminationReason: string | null }): AppError {
  return new AppError(
    "conflict",
    `Session '${row.id}' is terminated (${row.terminationReason ?? "ended"}); create a new session`,
    { detail: "session_terminated" },
  );
}

/** Host ownership in one place: today every live session must be on this host. */
export function assertServedHere(row: { id: string; hostId: string }) {
  if (row.hostId !== getSessionManager().hostId) {
    throw new AppError("unavailable", `Session '${row.id}' runs on host '${row.hostId}', not on this host`, {
      detail: "session_on_other_host",
    });
  }
}

export interface Reached {
  row: store.ComputerRow;
  live: LiveSession;
  handle: ComputerHandle;
}

/** Resolves a live session for an operation and records the activity. */
export async function reachSession(principal: ApiPrincipal, id: string): Promise<Reached> {
  const row = await findOwnedComputer(principal, id);
  if (row.status === "terminated") throw terminatedError(row);
  assertServedHere(row);
  const manager = getSessionManager();
  const live = manager.get(id);
  if (!live) {
    // The row says live but nothing runs it: a leftover the sweep has not reached yet.
    await manager.terminate(id, "crashed");
    throw terminatedError({ id, terminationReason: "crashed" });
  }
  const handle = await live.started.catch(() => null);
  if (!handle || manager.isEnding(live)) throw terminatedError({ id, terminationReason: "ending" });
  try {
    await manager.touch(live);
  } catch {
    throw terminatedError({ id, terminationReason: "ended" });
  }
  return { row, live, handle };
}

/** Removes the upstream proxy's credentials from any text bound for a client or a log. */
export function scrubSecrets(text: string): string {
  const raw = getEnv().ADVANCED_PROXY_URL;
  if (!raw) return text;
  let out = text.replaceAll(raw, "[proxy]");
  try {
    const url = new URL(raw);
    for (const secret of [url.password, decodeURIComponent(url.password), url.username, decodeURIComponent(url.username)]) {
      if (secret && secret.length >= 3) out = out.replaceAll(secret, "[redacted]");
    }
  } catch {
    // not a URL: nothing more to scrub
  }
  return out;
}

/**
 * Driver and manager errors → AppError. `inAction` is for /execute-style calls,
 * where a failed action is not an HTTP error (the caller renders status "error").
 */
export interface ActionFailure {
  actionFailed: string;
  reason: "tab_not_found" | "failed";
}

export function mapComputerError(err: unknown, live?: LiveSession): AppError | ActionFailure {
  if (live && getSessionManager().isEnding(live)) {
    return terminatedError({ id: live.id, terminationReason: "ended while the action ran" });
  }
  if (isActionError(err)) {
    const message = scrubSecrets(err.message);
    switch (err.reason) {
      case "invalid":
      case "not_supported":
      case "wrong_kind":
        return new AppError("invalid_request", message, { param: err.param, detail: err.reason });
      case "last_tab":
        return new AppError("conflict", message, { detail: "last_tab" });
      case "conflict":
        return new AppError("conflict", message, { param: err.param, detail: "conflict" });
      case "tab_not_found":
      case "failed":
        return { actionFailed: message, reason: err.reason };
    }
  }
  if (err instanceof Error && err.name === "SessionUnavailableError") {
    return new AppError("unavailable", err.message);
  }
  if (err instanceof AppError) return err;
  if (err instanceof Error && err.name === "AppError") {
    // An AppError from another copy of the module (another Next bundle): rebuild it as ours.
    const e = err as AppError;
    return new AppError(e.code, e.message, { param: e.param, detail: e.detail, headers: e.headers });
  }
  return new AppError("internal", scrubSecrets(`Session operation failed: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`));
}
