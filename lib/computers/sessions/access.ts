// How a request reaches a running session: the organization-scoped row (a
// foreign id is 404), the terminated check (409), the host that owns it (one
// lookup, so several hosts can later share a database), then activity.
// Failures of what runs on the session are translated by `asAppError`/`asActionResult`.
import { AppError } from "@/lib/api/errors";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import type { ComputerHandle } from "@/lib/computers/driver";
import { terminatedError } from "@/lib/computers/actions/failures";
import type { LiveSession } from "@/lib/computers/sessions/manager";
import { getSessionManager } from "@/lib/computers/registry";
import * as store from "@/lib/computers/sessions/store";

export async function findOwnedComputer(
  principal: Pick<ApiPrincipal, "organizationId">,
  id: string,
): Promise<store.ComputerRow> {
  const row = await store.findComputer({ id, organizationId: principal.organizationId });
  if (!row) throw new AppError("not_found", `Session '${id}' not found`, { detail: "session_not_found" });
  return row;
}

/**
 * Host ownership in one place: the refusal for a request that reached a node which does not run the session
 * anyway (a session that moved meanwhile). The cluster's forwarder sends requests to the session's node before
 * they get here (docs/cluster.md "Forwarding"); only the session domain's entry points call this.
 */
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

/**
 * A live session of the organization for an in-process client that drives it from this node (an agent task's
 * loop); null when it is unknown or ended; refused (503 session_on_other_host) when another node runs it.
 */
export async function findSessionToDriveHere(where: { id: string; organizationId: string }) {
  const row = await store.findComputer(where);
  if (!row || row.status === "terminated") return null;
  assertServedHere(row);
  return row;
}

/** Resolves a live session for an operation and records the activity. */
export async function reachSession(principal: Pick<ApiPrincipal, "organizationId">, id: string): Promise<Reached> {
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
  if (!(await manager.touch(live))) throw terminatedError({ id, terminationReason: "ended" });
  return { row, live, handle };
}
