// GET /api/sessions/{id}/events: the session page's event timeline. The SSE of
// GET /computers/{id}/events for the member's organization.
import { SSE_HEADERS } from "@/lib/api/sse";
import { withMember } from "@/lib/api/with-member";
import { openSessionEventsAs } from "@/lib/computers/dashboard-streams";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ req, member, params }) =>
  new Response(await openSessionEventsAs(member, { id: params.id, signal: req.signal }), { headers: SSE_HEADERS }),
);
