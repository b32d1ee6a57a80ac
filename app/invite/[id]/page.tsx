import { AcceptInvitation } from "@/components/members/accept-invitation";

export const metadata = { title: "Invitation" };

export default async function InvitePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <p className="mb-6 text-center text-lg font-semibold tracking-tight">
          <span aria-hidden>▣</span> Cabin
        </p>
        <AcceptInvitation invitationId={id} />
      </div>
    </main>
  );
}
