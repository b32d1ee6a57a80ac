// GET /api/sessions/{id}/tools: the fields the session page's tools need
// (kind, status, why it ended, the CDP URL), for the member's organization.
import { publicOrigin } from "@/lib/api/public-url";
import { withMember } from "@/lib/api/with-member";
import { sessionToolsFieldsAs } from "@/lib/computers/dashboard-streams";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ req, member, params }) =>
  Response.json(await sessionToolsFieldsAs(member, params.id, publicOrigin(req.headers))),
);
