import { withMember } from "@/lib/routes/with-member";
import { deleteProfile } from "@/lib/computers/session-profiles";

export const dynamic = "force-dynamic";

export const DELETE = withMember(
  async ({ member, params }) => {
    await deleteProfile({ organizationId: member.organizationId, name: params.name });
    return new Response(null, { status: 204 });
  },
  { roles: ["owner", "admin"] },
);
