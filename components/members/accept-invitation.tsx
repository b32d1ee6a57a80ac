"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { authClient } from "@/lib/auth/client";

export function AcceptInvitation({ invitationId }: { invitationId: string }) {
  const router = useRouter();
  const session = authClient.useSession();
  const next = encodeURIComponent(`/invite/${invitationId}`);
  const invitation = useQuery({
    queryKey: ["invitation", invitationId],
    enabled: !!session.data,
    queryFn: async () => {
      const { data, error } = await authClient.organization.getInvitation({ query: { id: invitationId } });
      if (error) throw new Error(error.message ?? "This invitation is not valid");
      return data;
    },
  });
  const accept = useMutation({
    mutationFn: async () => {
      const { error } = await authClient.organization.acceptInvitation({ invitationId });
      if (error) throw new Error(error.message ?? "Could not accept the invitation");
      await authClient.organization.setActive({ organizationId: invitation.data!.organizationId });
    },
    onSuccess: () => {
      router.replace("/");
      router.refresh();
    },
  });

  const box = "space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm";
  if (session.isPending) return <div className={box}>Loading…</div>;
  if (!session.data) {
    return (
      <div className={box}>
        <h1 className="text-lg font-semibold">You have been invited to a team on Cabin</h1>
        <p className="text-sm text-slate-600">Sign up or log in with the email address the invitation was sent to, then accept it.</p>
        <div className="flex gap-2">
          <Link className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white" href={`/sign-up?next=${next}`}>
            Sign up
          </Link>
          <Link className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium" href={`/login?next=${next}`}>
            Log in
          </Link>
        </div>
      </div>
    );
  }
  if (invitation.isPending) return <div className={box}>Loading invitation…</div>;
  if (invitation.error) return <div className={box}><Alert>{invitation.error.message}</Alert></div>;
  return (
    <div className={box}>
      <h1 className="text-lg font-semibold">Join {invitation.data.organizationName}</h1>
      <p className="text-sm text-slate-600">
        {invitation.data.inviterEmail} invited {invitation.data.email} as <strong>{invitation.data.role ?? "member"}</strong>.
      </p>
      {accept.error && <Alert>{accept.error.message}</Alert>}
      <Button onClick={() => accept.mutate()} disabled={accept.isPending}>
        {accept.isPending ? "Joining…" : "Accept invitation"}
      </Button>
    </div>
  );
}
