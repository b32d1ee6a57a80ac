// GET /api/usage?range=24h|7d|30d|month or ?from=&to= — the organization's
// model usage and session time in that range (dashboard).
import { withMember } from "@/lib/routes/with-member";
import { getUsageReport } from "@/lib/usage/usage-report";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member, req }) =>
  Response.json(await getUsageReport({ organizationId: member.organizationId, query: new URL(req.url).searchParams })),
);
