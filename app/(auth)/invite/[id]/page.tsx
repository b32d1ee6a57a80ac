import { headers } from "next/headers";
import { AcceptInvitation, EnterTeam } from "@/components/members/accept-invitation";
import { InvitationNotice } from "@/components/members/invitation-notice";
import { describeInvitationFor } from "@/lib/auth/invitation-page";

export const metadata = { title: "Invitation" };

export const dynamic = "force-dynamic";

export default async function InvitePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { invitation, viewer, viewerIsMember } = await describeInvitationFor({
    invitationId: id,
    headers: await headers(),
  });
  const here = `/login?next=${encodeURIComponent(`/invite/${id}`)}`;
  const home: [string, string] = viewer ? ["Go to your dashboard", "/sessions"] : ["Log in", "/login"];

  if (!invitation) {
    return (
      <InvitationNotice title="This invitation link does not work" links={[home]}>
        <p>
          No invitation has this link. Check that you copied all of it, or ask the person who invited you for a new one.
        </p>
      </InvitationNotice>
    );
  }
  if (viewer && viewerIsMember)
    return <EnterTeam organizationId={invitation.organizationId} organizationName={invitation.organizationName} />;
  if (invitation.state === "accepted") {
    return (
      <InvitationNotice
        title={`This invitation to ${invitation.organizationName} has been accepted`}
        links={viewer ? [home] : [["Log in", here]]}
      >
        <p>
          {viewer
            ? `It was accepted by ${invitation.email}; you are logged in as ${viewer.email}.`
            : `Log in as ${invitation.email} to open the team.`}
        </p>
      </InvitationNotice>
    );
  }
  if (invitation.state !== "pending") {
    const why = invitation.state === "expired" ? "has expired (invitations last 7 days)" : "was withdrawn";
    return (
      <InvitationNotice title="This invitation can no longer be used" links={[home]}>
        <p>
          The invitation to {invitation.organizationName} {why}. Ask {invitation.inviterName} to invite you again.
        </p>
      </InvitationNotice>
    );
  }
  if (!viewer) {
    return (
      <InvitationNotice
        title={`You have been invited to ${invitation.organizationName} on Cabin`}
        links={[
          ["Sign up", `/sign-up?invitation=${encodeURIComponent(id)}`],
          ["Log in", here],
        ]}
      >
        <p>
          {invitation.inviterName} invited {invitation.email} as {invitation.role}. New to Cabin? Sign up and you join
          the team at once; already have an account with this address? Log in, then accept.
        </p>
      </InvitationNotice>
    );
  }
  if (viewer.email.toLowerCase() !== invitation.email.toLowerCase()) {
    return (
      <InvitationNotice title={`This invitation is for ${invitation.email}`} links={[home]}>
        <p>
          You are logged in as {viewer.email}. Log out, then open this link again and sign up or log in as{" "}
          {invitation.email}.
        </p>
      </InvitationNotice>
    );
  }
  return <AcceptInvitation invitation={invitation} />;
}
