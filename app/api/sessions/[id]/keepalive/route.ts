// POST /api/sessions/{id}/keepalive: the public keepalive, for the member's organization.
import { publicOrigin } from "@/lib/api/public-url";
import { withMember } from "@/lib/routes/with-member";
import { keepSessionAliveAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ req, member, params }) =>
  Response.json(await keepSessionAliveAs(member, params.id, publicOrigin(req.headers))),
);
