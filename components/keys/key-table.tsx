"use client";

import { useState } from "react";
import { BudgetField } from "@/components/keys/budget-field";
import { useApiKeys, useRevokeKey, type ApiKeyRow } from "@/components/keys/use-keys";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { formatTime } from "@/components/ui/format";
import { useMe, type Me } from "@/components/shell/use-me";
import { ErrorState } from "@/components/ui/error-state";

/** The server's rule (revokeKeyAs): owners and admins revoke any key, a member only the keys they created. */
export function canRevoke(me: Pick<Me, "role" | "user"> | undefined, key: Pick<ApiKeyRow, "created_by">): boolean {
  if (!me) return false;
  return me.role !== "member" || key.created_by?.id === me.user.id;
}

export function KeyTable() {
  const keys = useApiKeys();
  const revoke = useRevokeKey();
  const me = useMe();
  const [asking, setAsking] = useState<ApiKeyRow | null>(null);

  if (keys.isPending) return <p className="text-sm text-slate-500">Loading keys…</p>;
  if (keys.error && !keys.data)
    return (
      <ErrorState
        what="The keys could not be loaded."
        detail={keys.error.message}
        onRetry={() => void keys.refetch()}
      />
    );
  if (keys.data.length === 0) return <p className="text-sm text-slate-600">No API keys yet. Create one above.</p>;

  return (
    // relative: the sr-only header cell is absolutely positioned and must be clipped by this scroller, not widen the
    // page.
    <div className="relative overflow-x-auto">
      <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
        <span className="font-medium text-slate-700">Organization monthly budget (USD, all keys together)</span>
        <BudgetField keyId={null} />
      </div>
      <ConfirmDialog
        open={asking !== null}
        title="Revoke this key?"
        message={
          asking && (
            <>
              Revoke “{asking.name}” ({asking.prefix}…)? Clients using it stop working at once.
            </>
          )
        }
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        error={revoke.error?.message}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && revoke.mutate(asking.id, { onSuccess: () => setAsking(null) })}
      />
      <p className="mb-2 text-xs text-slate-500 lg:hidden" data-testid="keys-scroll-hint">
        The table scrolls sideways for more columns; Revoke stays at the right edge.
      </p>
      <table className="w-full min-w-[760px] text-left text-sm">
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-2 pr-3 font-medium">Name</th>
            <th className="py-2 pr-3 font-medium">Key</th>
            <th className="py-2 pr-3 font-medium">Created by</th>
            <th className="py-2 pr-3 font-medium">Created</th>
            <th className="py-2 pr-3 font-medium">Last used</th>
            <th className="py-2 pr-3 font-medium">Monthly budget (USD)</th>
            {/* Sticky: on a narrow screen the table scrolls, and Revoke must stay in reach. */}
            <th className="sticky right-0 bg-white py-2 pl-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.data.map((key) => (
            <tr key={key.id} data-testid="key-row" data-prefix={key.prefix}>
              <td className="min-w-[10rem] py-2 pr-3 font-medium text-slate-900">{key.name}</td>
              <td className="py-2 pr-3 font-mono text-xs text-slate-600">{key.prefix}…</td>
              <td className="py-2 pr-3 text-slate-600">{key.created_by?.email ?? "operator (CLI)"}</td>
              <td className="py-2 pr-3 text-slate-600">{formatTime(key.created_at)}</td>
              <td className="py-2 pr-3 text-slate-600">{key.last_used_at ? formatTime(key.last_used_at) : "never"}</td>
              <td className="py-2 pr-3">{key.revoked_at ? null : <BudgetField keyId={key.id} />}</td>
              <td className="sticky right-0 bg-white py-2 pl-2 text-right shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.15)]">
                {key.revoked_at ? (
                  <span className="rounded bg-slate-100 px-2 py-1 text-xs text-slate-600">Revoked</span>
                ) : canRevoke(me.data, key) ? (
                  <Button variant="danger" onClick={() => setAsking(key)} disabled={revoke.isPending}>
                    Revoke
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
