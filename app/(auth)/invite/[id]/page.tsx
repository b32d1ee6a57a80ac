import { AcceptInvitation } from "@/components/members/accept-invitation";

export const metadata = { title: "Invitation" };

export default async function InvitePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AcceptInvitation invitationId={id} />;
}
