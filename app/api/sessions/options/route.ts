// GET /api/sessions/options: what the "New session" form may offer this organization.
import { withMember } from "@/lib/routes/with-member";
import { sessionCreateOptions } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member }) =>
  Response.json(await sessionCreateOptions({ organizationId: member.organizationId })),
);
