// The dashboard's view of the vault (docs/credentials.md "The dashboard"): owners see
// what the API shows (names, domains, value names, TOTP yes/no); other members the
// names only, enough to pick credentials for a task.
import type { Member } from "@/lib/auth/member";
import { listCredentials, type CredentialView } from "@/lib/credentials/store";

export type DashboardCredential = Pick<CredentialView, "name"> & Partial<Omit<CredentialView, "name">>;

export async function credentialsForMember(member: Pick<Member, "organizationId" | "role">) {
  const all = await listCredentials(member.organizationId);
  const data: DashboardCredential[] = member.role === "owner" ? all : all.map(({ name }) => ({ name }));
  return { data, can_manage: member.role === "owner" };
}
