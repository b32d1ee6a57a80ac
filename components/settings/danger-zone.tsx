"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import {
  useDeleteOrganization,
  useLeaveOrganization,
  type OrganizationSettings,
} from "@/components/settings/use-organization-settings";

function LeaveOrganization({ settings }: { settings: OrganizationSettings }) {
  const leave = useLeaveOrganization();
  const [asking, setAsking] = useState(false);
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold text-slate-900">Leave this organization</h3>
      {settings.can_leave ? (
        <p className="text-sm text-slate-600">
          You lose access to its sessions, keys and usage. An owner or admin can invite you again.
        </p>
      ) : (
        <p className="text-sm text-slate-600" data-testid="leave-blocked">
          {settings.leave_blocked_reason}
        </p>
      )}
      {asking ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="danger" disabled={leave.isPending} onClick={() => leave.mutate()}>
            {leave.isPending ? "Leaving…" : `Yes, leave ${settings.organization.name}`}
          </Button>
          <Button variant="ghost" onClick={() => setAsking(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button variant="secondary" disabled={!settings.can_leave} onClick={() => setAsking(true)}>
          Leave organization
        </Button>
      )}
      {leave.error && <Alert>{leave.error.message}</Alert>}
    </div>
  );
}

function DeleteOrganization({ settings }: { settings: OrganizationSettings }) {
  const remove = useDeleteOrganization();
  const [typed, setTyped] = useState("");
  const slug = settings.organization.slug;
  function submit(e: FormEvent) {
    e.preventDefault();
    remove.mutate(typed.trim());
  }
  return (
    <form onSubmit={submit} className="space-y-2" data-testid="delete-organization">
      <h3 className="text-sm font-semibold text-slate-900">Delete this organization</h3>
      <p className="text-sm text-slate-600">
        Stops its live sessions, then deletes its sessions, saved environments, API keys (they stop working at once),
        usage history and memberships. This cannot be undone.
      </p>
      <div className="max-w-sm">
        <TextField
          label={`Type ${slug} to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <Button type="submit" variant="danger" disabled={typed.trim() !== slug || remove.isPending}>
        {remove.isPending ? "Deleting…" : "Delete organization"}
      </Button>
      {remove.error && <Alert>{remove.error.message}</Alert>}
    </form>
  );
}

/** Leave (anyone but the last owner) and delete (owners only). */
export function DangerZone({ settings }: { settings: OrganizationSettings }) {
  return (
    <div className="space-y-6">
      <LeaveOrganization settings={settings} />
      {settings.can_delete && (
        <div className="border-t border-slate-200 pt-6">
          <DeleteOrganization settings={settings} />
        </div>
      )}
    </div>
  );
}
