"use client";

import {
  useCancelInvitation,
  useFullOrganization,
  useRemoveMember,
  useUpdateRole,
} from "@/components/members/use-organization";
import { invitationLink } from "@/components/members/invite-form";
import { useMe } from "@/components/shell/use-me";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";

const ROLES = ["owner", "admin", "member"] as const;

export function MemberList() {
  const org = useFullOrganization();
  const me = useMe();
  const updateRole = useUpdateRole();
  const remove = useRemoveMember();
  const cancel = useCancelInvitation();
  const canManage = me.data?.role === "owner" || me.data?.role === "admin";

  if (org.error) return <Alert>{org.error.message}</Alert>;
  if (!org.data) return <p className="text-sm text-slate-500">Loading members…</p>;
  const pending = org.data.invitations.filter((i) => i.status === "pending");
  const failure = updateRole.error ?? remove.error ?? cancel.error;

  return (
    <div className="space-y-6">
      {failure && <Alert>{failure.message}</Alert>}
      <ul className="divide-y divide-slate-100" aria-label="Members">
        {org.data.members.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center gap-3 py-2" data-testid="member-row">
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-slate-900">{m.user.name}</p>
              <p className="truncate text-xs text-slate-500">{m.user.email}</p>
            </div>
            {canManage && m.userId !== me.data?.user.id ? (
              <>
                <select
                  aria-label={`Role of ${m.user.email}`}
                  value={m.role}
                  onChange={(e) => updateRole.mutate({ memberId: m.id, role: e.target.value as (typeof ROLES)[number] })}
                  className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
                >
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
                <Button
                  variant="danger"
                  onClick={() => window.confirm(`Remove ${m.user.email} from this organization?`) && remove.mutate(m.id)}
                >
                  Remove
                </Button>
              </>
            ) : (
              <span className="rounded bg-slate-100 px-2 py-1 text-xs capitalize text-slate-700">{m.role}</span>
            )}
          </li>
        ))}
      </ul>
      {pending.length > 0 && (
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-800">Pending invitations</h3>
          <ul className="divide-y divide-slate-100">
            {pending.map((inv) => (
              <li key={inv.id} className="flex flex-wrap items-center gap-3 py-2" data-testid="invitation-row">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm text-slate-900">{inv.email}</p>
                  <p className="truncate font-mono text-xs text-slate-500" data-testid="invitation-link">
                    {invitationLink(inv.id)}
                  </p>
                </div>
                <span className="text-xs capitalize text-slate-600">{inv.role ?? "member"}</span>
                <CopyButton value={invitationLink(inv.id)} label="Copy link" />
                {canManage && (
                  <Button variant="ghost" onClick={() => cancel.mutate(inv.id)}>
                    Cancel
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
