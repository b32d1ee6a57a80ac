import { AuthPage } from "@/components/auth-form";
import { describeInvitation } from "@/lib/auth/invitations";
import { signupState } from "@/lib/auth/signup-policy";

export const metadata = { title: "Sign up" };

export const dynamic = "force-dynamic";

/** `?invitation=<id>` (from an invitation link): the email is the invitation's and signing up joins its team. */
export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ invitation?: string | string[] }>;
}) {
  const { invitation: invitationId } = await searchParams;
  const invitation = typeof invitationId === "string" ? await describeInvitation(invitationId) : null;
  const usable =
    invitation?.state === "pending"
      ? { id: invitation.id, email: invitation.email, organizationName: invitation.organizationName }
      : undefined;
  return <AuthPage mode="sign-up" invitation={usable} signup={await signupState()} />;
}
