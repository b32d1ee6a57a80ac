// Who may open a session's CDP endpoint: a `?token=` signed for that session
// (endpoints.cdp), or the organization's API key in `Authorization: Bearer`.
// A token, when given, decides alone (a bad one is 401 even with a key).
// Unknown or foreign session → 404, terminated → 409, a desktop → 400.
import type { IncomingMessage } from "node:http";
import { AppError } from "@/lib/api/errors";
import { verifyCapability } from "@/lib/api/capability-token";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { assertServedHere, findOwnedComputer } from "@/lib/computers/sessions/access";
import { cdpEnabled, cdpOffReason } from "@/lib/computers/browser/cdp-enabled";
import { cdpCapability } from "@/lib/computers/browser/cdp-url";
import type { CdpCapability } from "@/lib/computers/driver";
import { terminatedError } from "@/lib/computers/actions/failures";
import type { LiveSession } from "@/lib/computers/sessions/manager";
import { getSessionManager } from "@/lib/computers/registry";
import * as store from "@/lib/computers/sessions/store";

export interface CdpAccess {
  live: LiveSession;
  cdp: CdpCapability;
}

/** The session a CDP request may reach, or the AppError to answer with. */
export async function authorizeCdp(req: IncomingMessage, sessionId: string): Promise<CdpAccess> {
  if (!cdpEnabled()) throw new AppError("not_implemented", cdpOffReason(), { detail: "cdp_off" });
  const token = new URL(req.url ?? "/", "http://localhost").searchParams.get("token");
  let row: store.ComputerRow | null;
  if (token !== null) {
    if (!verifyCapability(cdpCapability(sessionId), token)) {
      throw new AppError("unauthorized", "The CDP token is invalid or expired, or it was issued for another session", {
        detail: "invalid_token",
      });
    }
    row = await store.findComputerById(sessionId);
    if (!row) throw new AppError("not_found", `Session '${sessionId}' not found`, { detail: "session_not_found" });
  } else {
    const principal = await authenticateApiKey(req.headers.authorization ?? null);
    row = await findOwnedComputer(principal, sessionId);
  }
  if (row.status === "terminated") throw terminatedError(row);
  assertServedHere(row);
  const manager = getSessionManager();
  const live = manager.get(sessionId);
  const handle = live ? await live.started.catch(() => null) : null;
  if (!live || !handle || manager.isEnding(live)) throw terminatedError({ id: sessionId, terminationReason: "ending" });
  if (!handle.cdp) {
    throw new AppError(
      "invalid_request",
      `Session '${sessionId}' is a ${handle.kind} session; CDP is offered for browser sessions only`,
    );
  }
  return { live, cdp: handle.cdp };
}
