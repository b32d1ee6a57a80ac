import { withMember } from "@/lib/api/with-member";
import { revokeKeyAs } from "@/lib/auth/dashboard";

export const DELETE = withMember(async ({ member, params }) => Response.json(await revokeKeyAs(member, params.id)));
