import { withMember } from "@/lib/routes/with-member";
import { describeMember } from "@/lib/auth/dashboard";

export const GET = withMember(async ({ member }) => Response.json(await describeMember(member)));
