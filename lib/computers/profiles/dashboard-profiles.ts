// The dashboard's view of profiles (docs/profiles.md "Dashboard"): owners and admins
// see what GET /profiles answers; members see only the names, enough to start a
// session or task from one.
import type { Member } from "@/lib/auth/member";
import { listProfiles, type ProfileObject } from "@/lib/computers/profiles/profiles";

export type DashboardProfile = Pick<ProfileObject, "name"> & Partial<ProfileObject>;

export async function listProfilesAs(member: Member): Promise<DashboardProfile[]> {
  const profiles = await listProfiles({ organizationId: member.organizationId });
  return member.role === "member" ? profiles.map((p) => ({ name: p.name })) : profiles;
}
