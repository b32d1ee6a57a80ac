// POST /api/sessions/{id}/tabs/{tab_id}/switch: make a tab the active one (the live view follows it).
import { publicOrigin } from "@/lib/api/public-url";
import { withMember } from "@/lib/routes/with-member";
import { switchSessionTabAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ req, requestId, member, params }) =>
  Response.json(
    await switchSessionTabAs({
      member,
      id: params.id,
      requestId,
      origin: publicOrigin(req.headers),
      tabId: params.tab_id,
    }),
  ),
);
