"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { authClient } from "@/lib/auth/client";

interface InvitationSummary {
  id: string;
  organizationId: string;
  organizationName: string;
  inviterName: string;
  email: string;
  role: string;
}

/** Makes the team the one the dashboard acts in, then opens its Sessions page. */
async function enterTeam(router: ReturnType<typeof useRouter>, organizationId: string) {
  await authClient.organization.setActive({ organizationId });
  router.replace("/sessions");
  router.refresh();
}

/** A pending invitation, shown to its logged-in recipient: one click joins. */
export function AcceptInvitation({ invitation }: { invitation: InvitationSummary }) {
  const router = useRouter();
  const accept = useMutation({
    mutationFn: async () => {
      const { error } = await authClient.organization.acceptInvitation({ invitationId: invitation.id });
      if (error) throw new Error(error.message ?? "Could not accept the invitation");
      await enterTeam(router, invitation.organizationId);
    },
  });
  return (
    <div className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-lg font-semibold">Join {invitation.organizationName}</h1>
      <p className="text-sm text-slate-600">
        {invitation.inviterName} invited {invitation.email} as <strong>{invitation.role}</strong>.
      </p>
      {accept.error && <Alert>{accept.error.message}</Alert>}
      <Button onClick={() => accept.mutate()} disabled={accept.isPending}>
        {accept.isPending ? "Joining…" : "Accept invitation"}
      </Button>
    </div>
  );
}

/** The viewer is already in the team (a reopened, accepted link): straight into it. */
export function EnterTeam({ organizationId, organizationName }: { organizationId: string; organizationName: string }) {
  const router = useRouter();
  useEffect(() => {
    void enterTeam(router, organizationId);
  }, [router, organizationId]);
  return (
    <div
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-sm text-slate-600 shadow-sm"
      role="status"
    >
      <p>You are already a member of {organizationName}. Opening it…</p>
      <Link href="/sessions" className="font-medium text-brand-700 underline underline-offset-2">
        Go to Sessions
      </Link>
    </div>
  );
}
