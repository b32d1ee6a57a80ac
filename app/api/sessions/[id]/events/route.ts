// GET /api/sessions/{id}/events: the session page's event timeline. The SSE of
// GET /computers/{id}/events for the member's organization, with the same replay
// (Last-Event-ID or ?since=).
import { SSE_HEADERS } from "@/lib/api/sse";
import { withMember } from "@/lib/routes/with-member";
import { openSessionEventsAs, replayStart } from "@/lib/computers/session-streams";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ req, member, params }) => {
  const replayAfter = replayStart(req.headers.get("last-event-id"), new URL(req.url).searchParams.get("since"));
  return new Response(await openSessionEventsAs(member, { id: params.id, signal: req.signal, replayAfter }), {
    headers: SSE_HEADERS,
  });
});
