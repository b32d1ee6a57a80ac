"use client";

import { useState } from "react";
import { useRemoveMember, useUpdateRole, type OrgMember } from "@/components/members/use-organization";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { memberControls, type MemberRef } from "@/lib/auth/member-permissions";
import type { Role } from "@/lib/auth/organizations";

const SELECT = "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm";

/** One member: name and email, "(you)" on the viewer's own row, and only the controls the viewer's role allows. */
export function MemberRow({
  member,
  viewer,
  ownerCount,
}: {
  member: OrgMember;
  viewer: MemberRef;
  ownerCount: number;
}) {
  const updateRole = useUpdateRole();
  const remove = useRemoveMember();
  const controls = memberControls({ viewer, target: member, ownerCount });
  const isViewer = member.userId === viewer.userId;
  const failure = updateRole.error;
  const [confirming, setConfirming] = useState(false);

  return (
    <li className="flex flex-wrap items-center gap-3 py-2" data-testid="member-row">
      <div className="min-w-0 flex-1 basis-56">
        <p className="truncate text-sm font-medium text-slate-900">
          {member.user.name}
          {isViewer && <span className="ml-1 font-normal text-slate-500">(you)</span>}
        </p>
        <p className="truncate text-xs text-slate-500">{member.user.email}</p>
      </div>
      {controls.roleOptions.length > 0 ? (
        <select
          aria-label={`Role of ${member.user.email}`}
          value={member.role}
          disabled={updateRole.isPending}
          onChange={(e) => updateRole.mutate({ memberId: member.id, role: e.target.value as Role })}
          className={SELECT}
        >
          {controls.roleOptions.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      ) : (
        <span className="rounded bg-slate-100 px-2 py-1 text-xs capitalize text-slate-700" data-testid="member-role">
          {member.role}
        </span>
      )}
      {controls.canRemove && (
        <Button variant="danger" disabled={remove.isPending} onClick={() => setConfirming(true)}>
          Remove
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title="Remove this member?"
        message={<>Remove {member.user.email} from this organization? They lose access at once.</>}
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={remove.error?.message}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate(member.id, { onSuccess: () => setConfirming(false) })}
      />
      {failure && (
        <div className="basis-full">
          <Alert>{failure.message}</Alert>
        </div>
      )}
    </li>
  );
}
