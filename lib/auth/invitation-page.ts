// What the invite page shows depends on the invitation and on who opens it.
// Apart from `lib/auth/invitations` because the sign-up hook (in `getAuth`'s
// module) uses that one, and this one needs `getAuth`.
import { getAuth } from "@/lib/auth/auth";
import { describeInvitation, isMemberOf } from "@/lib/auth/invitations";

/** The invitation (null: no such link), who is looking (null: logged out), and whether they are already in its team. */
export async function describeInvitationFor({ invitationId, headers }: { invitationId: string; headers: Headers }) {
  const invitation = await describeInvitation(invitationId);
  const session = await getAuth().api.getSession({ headers });
  const viewer = session ? { userId: session.user.id, email: session.user.email } : null;
  const viewerIsMember = !!(
    invitation &&
    viewer &&
    (await isMemberOf({ userId: viewer.userId, organizationId: invitation.organizationId }))
  );
  return { invitation, viewer, viewerIsMember };
}
