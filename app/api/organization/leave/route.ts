// POST /api/organization/leave — the viewer leaves their current organization
// (refused for its last owner); answers where they go next.
import { withMember } from "@/lib/routes/with-member";
import { leaveOrganization } from "@/lib/auth/organization-lifecycle";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ member }) => Response.json(await leaveOrganization(member)));
