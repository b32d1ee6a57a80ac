"use client";

import { useFullOrganization } from "@/components/members/use-organization";
import { MemberRow } from "@/components/members/member-row";
import { PendingInvitations } from "@/components/members/pending-invitations";
import { useMe } from "@/components/shell/use-me";
import { ErrorState } from "@/components/ui/error-state";

export function MemberList() {
  const org = useFullOrganization();
  const me = useMe();

  const failed = org.error ?? me.error;
  if (failed) {
    return (
      <ErrorState
        what="The members could not be loaded."
        detail={failed.message}
        onRetry={() => void (org.error ? org.refetch() : me.refetch())}
      />
    );
  }
  if (!org.data || !me.data) return <p className="text-sm text-slate-500">Loading members…</p>;
  const viewer = { userId: me.data.user.id, role: me.data.role };
  const ownerCount = org.data.members.filter((m) => m.role === "owner").length;
  const pending = org.data.invitations.filter((i) => i.status === "pending");

  return (
    <div className="space-y-6">
      <ul className="divide-y divide-slate-100" aria-label="Members">
        {org.data.members.map((m) => (
          <MemberRow key={m.id} member={m} viewer={viewer} ownerCount={ownerCount} />
        ))}
      </ul>
      {pending.length > 0 && <PendingInvitations invitations={pending} viewerRole={viewer.role} />}
    </div>
  );
}
