"use client";

import { useState } from "react";
import {
  useCredentials,
  useDeleteCredential,
  type DashboardCredential,
} from "@/components/credentials/use-credentials";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/error-state";
import { formatTime } from "@/components/ui/format";

/** Owners: name, domain, value names, TOTP, updated, delete. Other members: the names only. */
export function CredentialList() {
  const credentials = useCredentials();
  const remove = useDeleteCredential();
  const [asking, setAsking] = useState<DashboardCredential | null>(null);

  if (credentials.isPending) return <p className="text-sm text-slate-500">Loading credentials…</p>;
  if (credentials.error)
    return (
      <ErrorState
        what="The credentials could not be loaded."
        detail={credentials.error.message}
        onRetry={() => credentials.refetch()}
      />
    );
  const { data, can_manage } = credentials.data;
  if (data.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="credentials-empty">
        No credentials yet. {can_manage ? "Store one above." : "The organization's owners store them here."}
      </p>
    );
  if (!can_manage)
    return (
      <div className="space-y-2">
        <p className="text-xs text-slate-500">
          Owners manage credentials; members see their names to pick them for tasks.
        </p>
        <ul className="flex flex-wrap gap-2">
          {data.map((c) => (
            <li
              key={c.name}
              className="rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-700"
              data-testid="credential-row"
            >
              {c.name}
            </li>
          ))}
        </ul>
      </div>
    );

  return (
    <div className="relative overflow-x-auto">
      <ConfirmDialog
        open={asking !== null}
        title="Delete this credential?"
        message={
          asking && (
            <>
              Delete “{asking.name}” ({asking.domain})? Tasks naming it can no longer start, and its values are gone.
            </>
          )
        }
        confirmLabel="Delete credential"
        pending={remove.isPending}
        error={remove.error?.message}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && remove.mutate(asking.name, { onSuccess: () => setAsking(null) })}
      />
      <table className="w-full min-w-[640px] text-left text-sm">
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-2 pr-3 font-medium">Name</th>
            <th className="py-2 pr-3 font-medium">Domain</th>
            <th className="py-2 pr-3 font-medium">Values</th>
            <th className="py-2 pr-3 font-medium">One-time codes</th>
            <th className="py-2 pr-3 font-medium">Updated</th>
            <th className="sticky right-0 bg-white py-2 pl-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data.map((c) => (
            <tr key={c.name} data-testid="credential-row" data-name={c.name}>
              <td className="py-2 pr-3 font-medium text-slate-900">{c.name}</td>
              <td className="py-2 pr-3 text-slate-600">{c.domain}</td>
              <td className="py-2 pr-3">
                <span className="flex flex-wrap gap-1">
                  {c.fields?.map((field) => (
                    <span key={field} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                      {field}
                    </span>
                  ))}
                </span>
              </td>
              <td className="py-2 pr-3 text-slate-600">{c.has_totp ? "Yes" : "No"}</td>
              <td className="py-2 pr-3 text-slate-600">{c.updated_at ? formatTime(c.updated_at) : ""}</td>
              <td className="sticky right-0 bg-white py-2 pl-2 text-right shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.15)]">
                <Button
                  variant="danger"
                  aria-label={`Delete ${c.name}`}
                  onClick={() => setAsking(c)}
                  disabled={remove.isPending}
                >
                  Delete
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
