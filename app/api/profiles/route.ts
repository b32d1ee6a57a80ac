// The dashboard's profiles: owners and admins see sizes, times and who holds each; members see names only.
import { withMember } from "@/lib/routes/with-member";
import { listProfilesAs } from "@/lib/computers/session-profiles";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member }) => Response.json({ data: await listProfilesAs(member) }));
