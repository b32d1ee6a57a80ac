// GET /api/usage — the organization's model usage of the last 30 days (dashboard).
import { withMember } from "@/lib/api/with-member";
import { getUsageReport } from "@/lib/models/usage-report";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member }) =>
  Response.json(await getUsageReport({ organizationId: member.organizationId })),
);
