"use client";

import { invitationLink } from "@/components/members/invite-form";
import { useCancelInvitation, type OrgInvitation } from "@/components/members/use-organization";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { canCancelInvitations } from "@/lib/auth/member-permissions";

/** Invitations not yet accepted: each link to copy, and Cancel for those who may withdraw them. */
export function PendingInvitations({ invitations, viewerRole }: { invitations: OrgInvitation[]; viewerRole: string }) {
  const cancel = useCancelInvitation();
  const mayCancel = canCancelInvitations(viewerRole);
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-slate-800">Pending invitations</h3>
      {cancel.error && <Alert>{cancel.error.message}</Alert>}
      <ul className="divide-y divide-slate-100">
        {invitations.map((inv) => (
          <li key={inv.id} className="flex flex-wrap items-center gap-3 py-2" data-testid="invitation-row">
            <div className="min-w-0 flex-1 basis-56">
              <p className="truncate text-sm text-slate-900">{inv.email}</p>
              <p className="truncate font-mono text-xs text-slate-500" data-testid="invitation-link">
                {invitationLink(inv.id)}
              </p>
            </div>
            <span className="text-xs capitalize text-slate-600">{inv.role ?? "member"}</span>
            <CopyButton value={invitationLink(inv.id)} label="Copy link" />
            {mayCancel && (
              <Button variant="ghost" onClick={() => cancel.mutate(inv.id)}>
                Cancel
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
