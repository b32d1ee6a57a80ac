// The session page's streams for a logged-in member: the same services as the
// public /computers/{id}/exec and /events (execStream, openSessionEvents), scoped
// to the member's organization instead of an API key's, so a foreign id is the
// same 404 and a terminated session the same 409 (or error line).
import type { Member } from "@/lib/auth/member";
import { findOwnedComputer } from "@/lib/computers/access";
import { execStream } from "@/lib/computers/desktop/exec-stream";
import { openSessionEvents } from "@/lib/computers/events-service";
import { toSession } from "@/lib/computers/lifecycle";

function memberScope(member: Member) {
  return { organizationId: member.organizationId };
}

/** What the session page's tools need of a session (GET /api/sessions/{id}/tools), snake_case. */
export interface SessionToolsFields {
  id: string;
  kind: string;
  status: string;
  termination_reason: string | null;
  expires_at: string;
  endpoints: { cdp?: string };
}

export async function sessionToolsFieldsAs(member: Member, id: string, origin: string): Promise<SessionToolsFields> {
  const session = toSession(await findOwnedComputer(memberScope(member), id), origin);
  return {
    id: session.id,
    kind: session.kind,
    status: session.status,
    termination_reason: session.termination_reason,
    expires_at: session.expires_at,
    endpoints: session.endpoints.cdp ? { cdp: session.endpoints.cdp } : {},
  };
}

/** POST /api/sessions/{id}/exec: the NDJSON exec stream, run for the member's team. */
export function execStreamAs(
  member: Member,
  input: { id: string; requestId: string; readBody: () => Promise<unknown>; signal: AbortSignal },
): ReadableStream<Uint8Array> {
  return execStream({ ...input, principal: memberScope(member) });
}

/** GET /api/sessions/{id}/events: the session's event stream, for the member's team. */
export function openSessionEventsAs(member: Member, input: { id: string; signal: AbortSignal }) {
  return openSessionEvents({ ...input, principal: memberScope(member) });
}
