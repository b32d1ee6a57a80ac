// The public CDP URL of a browser session (endpoints.cdp) and the capability
// its `?token=` grants: CDP for that one session, until the session's
// expires_at at the latest.
import type { Capability } from "@/lib/api/capability-token";
import { signCapability } from "@/lib/api/capability-token";

export function cdpCapability(sessionId: string): Capability {
  return { purpose: "computers.cdp.v1", subject: [sessionId] };
}

/** The path the gateway serves for a session (also the prefix of its HTTP discovery). */
export function cdpPath(sessionId: string): string {
  return `/computers/${encodeURIComponent(sessionId)}/cdp`;
}

/** ws(s)://<public host>/computers/{id}/cdp?token=… for a client that reached us at `origin` (publicOrigin). */
export function cdpUrl(session: { id: string; expiresAt: Date }, origin: string): string {
  const token = signCapability(cdpCapability(session.id), session.expiresAt.getTime());
  const ws = origin.replace(/^http(s?):/, "ws$1:");
  return `${ws}${cdpPath(session.id)}?token=${token}`;
}
