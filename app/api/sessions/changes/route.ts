// GET /api/sessions/changes: an SSE `changed` event whenever a session of the
// member's organization starts, changes status or ends (the session list refetches then).
import { SSE_HEADERS } from "@/lib/api/sse";
import { withMember } from "@/lib/routes/with-member";
import { sessionListChangesAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const GET = withMember(
  async ({ req, member }) => new Response(sessionListChangesAs(member, req.signal), { headers: SSE_HEADERS }),
);
