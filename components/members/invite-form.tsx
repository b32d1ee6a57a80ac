"use client";

import { useState } from "react";
import { useInvite } from "@/components/members/use-organization";
import { SubmitButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { SelectField, TextField } from "@/components/ui/field";
import { formSubmit } from "@/components/ui/form-submit";

export function invitationLink(id: string): string {
  return `${window.location.origin}/invite/${id}`;
}

/** `roles`: the roles the viewer may hand out (see invitableRoles). */
export function InviteForm({ roles }: { roles: readonly string[] }) {
  const invite = useInvite();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = formSubmit(async (data) => {
    const email = String(data.get("email"));
    // A new attempt replaces the last one's message: an error never shows beside an older success.
    setSentTo(null);
    await invite.mutateAsync({ email, role: data.get("role") as "admin" | "member" | "owner" });
    setSentTo(email);
  });

  return (
    <div className="space-y-3">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
        <TextField label="Email" name="email" type="email" required placeholder="teammate@example.com" />
        <SelectField label="Role" name="role" options={roles} defaultValue="member" />
        <SubmitButton pending={invite.isPending} label="Invite" pendingLabel="Inviting…" />
      </form>
      {invite.error && <Alert>{invite.error.message}</Alert>}
      {sentTo && !invite.error && (
        <Alert tone="success">
          Invitation created for {sentTo}. Copy its link from the pending invitations below and send it to them.
        </Alert>
      )}
    </div>
  );
}
