// Who is logged in: the login cookie's user, in the organization they are
// working in, with their role there. The dashboard wrapper (`withMember`) and
// the dashboard layout both ask this.
import { getAuth } from "@/lib/auth/auth";
import { forwardedMember } from "@/lib/cluster/forwarded-identity";
import { resolveMembership, type Role } from "@/lib/auth/organizations";

export interface Member {
  userId: string;
  email: string;
  name: string;
  organizationId: string;
  role: Role;
}

/** The member behind these request headers, or null when not logged in or in no organization. */
export async function currentMember(headers: Headers): Promise<Member | null> {
  const visitor = await currentVisitor(headers);
  return typeof visitor === "object" ? visitor : null;
}

/**
 * Like currentMember, but tells a visitor who is logged in yet in no team
 * (removed from their only one, or it was deleted) from one who is logged out:
 * the first belongs on the "create a team" page, not the login page.
 */
export async function currentVisitor(headers: Headers): Promise<Member | "no-team" | "logged-out"> {
  // A request another node forwarded, its login checked there (docs/cluster.md).
  const forwarded = forwardedMember(headers);
  if (forwarded) return { ...forwarded, role: forwarded.role as Role };
  const session = await getAuth().api.getSession({ headers });
  if (!session) return "logged-out";
  const membership = await resolveMembership({
    userId: session.user.id,
    activeOrganizationId: (session.session as { activeOrganizationId?: string | null }).activeOrganizationId,
  });
  if (!membership) return "no-team";
  return {
    userId: session.user.id,
    email: session.user.email,
    name: session.user.name,
    organizationId: membership.organizationId,
    role: membership.role as Role,
  };
}
