// Invitations as the invite link and the sign-up form see them, and joining
// the inviting team at sign-up. Better Auth's own endpoints need a logged-in
// recipient; these answer before anyone is logged in, by the link's id only.
import { randomUUID } from "node:crypto";
import { activateOrganizationForSessions } from "@/lib/auth/organizations";
import { getDb } from "@/lib/db";

export type InvitationState = "pending" | "accepted" | "expired" | "canceled";

export interface InvitationView {
  id: string;
  email: string;
  role: string;
  organizationId: string;
  organizationName: string;
  inviterName: string;
  state: InvitationState;
}

function stateOf(invitation: { status: string; expiresAt: Date }): InvitationState {
  if (invitation.status === "accepted") return "accepted";
  if (invitation.status === "pending") return invitation.expiresAt > new Date() ? "pending" : "expired";
  // Better Auth's "rejected" and "canceled" both mean the link no longer works.
  return "canceled";
}

/** The invitation behind a link, or null when no invitation has this id. */
export async function describeInvitation(id: string): Promise<InvitationView | null> {
  if (!id || id.length > 200) return null;
  const found = await getDb().invitation.findUnique({
    where: { id },
    include: { organization: { select: { name: true } }, inviter: { select: { name: true, email: true } } },
  });
  if (!found) return null;
  return {
    id: found.id,
    email: found.email,
    role: found.role ?? "member",
    organizationId: found.organizationId,
    organizationName: found.organization.name,
    inviterName: found.inviter.name || found.inviter.email,
    state: stateOf(found),
  };
}

/** Whether this user already belongs to the organization (reopening an accepted link). */
export async function isMemberOf({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string;
}): Promise<boolean> {
  const found = await getDb().member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
  return found !== null;
}

/**
 * A person who signs up from an invitation link joins that team at once (and
 * gets no team of their own): the invitation must be pending, unexpired and
 * addressed to the email they signed up with. Returns the organization joined,
 * or null when the invitation does not fit (the caller then makes a personal team).
 */
export async function joinInvitationAtSignUp({
  invitationId,
  userId,
  email,
}: {
  invitationId: string;
  userId: string;
  email: string;
}) {
  const db = getDb();
  const joined = await db.$transaction(async (tx) => {
    const invitation = await tx.invitation.findUnique({ where: { id: invitationId } });
    if (!invitation || stateOf(invitation) !== "pending") return null;
    if (invitation.email.toLowerCase() !== email.toLowerCase()) return null;
    // Only the one caller that flips "pending" to "accepted" adds the member.
    const claimed = await tx.invitation.updateMany({
      where: { id: invitationId, status: "pending" },
      data: { status: "accepted" },
    });
    if (claimed.count !== 1) return null;
    await tx.member.create({
      data: { id: randomUUID(), organizationId: invitation.organizationId, userId, role: invitation.role ?? "member" },
    });
    return invitation.organizationId;
  });
  if (joined) await activateOrganizationForSessions({ userId, organizationId: joined });
  return joined;
}
