// The session page's streams for a logged-in member: the same services as the
// public /computers/{id}/exec and /events (execStream, openSessionEvents), scoped
// to the member's organization instead of an API key's, so a foreign id is the
// same 404 and a terminated session the same 409 (or error line).
import type { Member } from "@/lib/auth/member";
import { execStream } from "@/lib/computers/desktop/exec-stream";
import { openSessionEvents } from "@/lib/computers/events/events-service";

function memberScope(member: Member) {
  return { organizationId: member.organizationId };
}

/** POST /api/sessions/{id}/exec: the NDJSON exec stream, run for the member's team. */
export function execStreamAs(
  member: Member,
  input: { id: string; requestId: string; readBody: () => Promise<unknown>; signal: AbortSignal },
): ReadableStream<Uint8Array> {
  return execStream({ ...input, principal: memberScope(member) });
}

/** GET /api/sessions/{id}/events: the session's event stream, for the member's team. */
export function openSessionEventsAs(
  member: Member,
  input: { id: string; signal: AbortSignal; replayAfter?: number | null },
) {
  return openSessionEvents({ ...input, principal: memberScope(member), reviewEnded: true });
}
