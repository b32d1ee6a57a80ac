// The dashboard's sessions: GET the organization's list (paginated, live
// first, with the server's clock), POST to create one for the team.
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { createSessionAs, listDashboardSessions } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ req, member }) =>
  Response.json(
    await listDashboardSessions({ organizationId: member.organizationId, query: new URL(req.url).searchParams }),
  ),
);

export const POST = withMember(async ({ req, member }) =>
  Response.json(await createSessionAs(member, await readJson(req, { optional: true }), publicOrigin(req.headers)), {
    status: 201,
  }),
);
