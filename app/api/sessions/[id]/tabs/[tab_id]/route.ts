// DELETE /api/sessions/{id}/tabs/{tab_id}: close a tab (the last one is refused with a 409 saying why).
import { publicOrigin } from "@/lib/api/public-url";
import { withMember } from "@/lib/routes/with-member";
import { closeSessionTabAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const DELETE = withMember(async ({ req, requestId, member, params }) =>
  Response.json(
    await closeSessionTabAs({
      member,
      id: params.id,
      requestId,
      origin: publicOrigin(req.headers),
      tabId: params.tab_id,
    }),
  ),
);
