"use client";

import { BudgetField } from "@/components/keys/budget-field";
import { useApiKeys, useRevokeKey, type ApiKeyRow } from "@/components/keys/use-keys";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { formatTime } from "@/components/ui/format";

export function KeyTable() {
  const keys = useApiKeys();
  const revoke = useRevokeKey();

  if (keys.isPending) return <p className="text-sm text-slate-500">Loading keys…</p>;
  if (keys.error) return <Alert>{keys.error.message}</Alert>;
  if (keys.data.length === 0) return <p className="text-sm text-slate-600">No API keys yet. Create one above.</p>;

  function confirmRevoke(key: ApiKeyRow) {
    if (window.confirm(`Revoke “${key.name}” (${key.prefix}…)? Clients using it stop working at once.`)) {
      revoke.mutate(key.id);
    }
  }

  return (
    // relative: the sr-only header cell is absolutely positioned and must be clipped by this scroller, not widen the page.
    <div className="relative overflow-x-auto">
      <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
        <span className="font-medium text-slate-700">Organization monthly budget (USD, all keys together)</span>
        <BudgetField keyId={null} />
      </div>
      {revoke.error && <Alert>{revoke.error.message}</Alert>}
      <table className="w-full min-w-[760px] text-left text-sm">
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-2 pr-3 font-medium">Name</th>
            <th className="py-2 pr-3 font-medium">Key</th>
            <th className="py-2 pr-3 font-medium">Created by</th>
            <th className="py-2 pr-3 font-medium">Created</th>
            <th className="py-2 pr-3 font-medium">Last used</th>
            <th className="py-2 pr-3 font-medium">Monthly budget (USD)</th>
            <th className="py-2 font-medium">
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
              <td className="py-2 text-right">
                {key.revoked_at ? (
                  <span className="rounded bg-slate-100 px-2 py-1 text-xs text-slate-600">Revoked</span>
                ) : (
                  <Button variant="danger" onClick={() => confirmRevoke(key)} disabled={revoke.isPending}>
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
