import { withMember } from "@/lib/routes/with-member";
import { deleteCredential } from "@/lib/credentials/store";

export const dynamic = "force-dynamic";

export const DELETE = withMember(
  async ({ member, params }) => Response.json(await deleteCredential(member.organizationId, params.name)),
  { roles: ["owner"] },
);
