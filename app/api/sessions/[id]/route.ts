// DELETE /api/sessions/{id}: stop a session of the member's organization.
import { withMember } from "@/lib/api/with-member";
import { stopSessionAs } from "@/lib/computers/dashboard";

export const dynamic = "force-dynamic";

export const DELETE = withMember(async ({ member, params }) => {
  await stopSessionAs(member, params.id);
  return new Response(null, { status: 204 });
});
