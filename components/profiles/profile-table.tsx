"use client";

import Link from "next/link";
import { useState } from "react";
import { useDeleteProfile, useProfiles, type DashboardProfile } from "@/components/profiles/use-profiles";
import { useMe } from "@/components/shell/use-me";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/error-state";
import { formatTime } from "@/components/ui/format";

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Owners and admins: size, times, the session saving into it, and Delete. Members: the names (listProfilesAs). */
export function ProfileTable() {
  const profiles = useProfiles();
  const me = useMe();
  const remove = useDeleteProfile();
  const [asking, setAsking] = useState<DashboardProfile | null>(null);

  if (profiles.isPending)
    return (
      <p className="text-sm text-slate-500" role="status">
        Loading profiles…
      </p>
    );
  if (profiles.error)
    return (
      <ErrorState
        what="The profiles could not be loaded."
        detail={profiles.error.message}
        onRetry={() => profiles.refetch()}
      />
    );
  if (profiles.data.length === 0)
    return (
      <div className="space-y-1 text-sm text-slate-600" data-testid="profiles-empty">
        <p className="font-medium text-slate-800">No profiles yet.</p>
        <p>
          Start a browser session with a profile name and “Save changes” (on the{" "}
          <Link href="/sessions" className="font-medium text-brand-700 underline underline-offset-2">
            Sessions
          </Link>{" "}
          page, or{" "}
          <code className="rounded bg-slate-100 px-1">{'"profile": {"name": "acme", "save_changes": true}'}</code> in
          POST /computers): its cookies, local storage and IndexedDB are saved under that name.
        </p>
      </div>
    );
  if (me.data?.role === "member")
    return (
      <ul className="flex flex-wrap gap-2" aria-label="Profiles">
        {profiles.data.map((p) => (
          <li key={p.name} className="rounded-md border border-slate-200 px-2 py-1 font-mono text-sm text-slate-800">
            {p.name}
          </li>
        ))}
      </ul>
    );

  return (
    <div className="relative overflow-x-auto">
      <ConfirmDialog
        open={asking !== null}
        title="Delete this profile?"
        message={
          asking && (
            <>
              Delete “{asking.name}”? Its cookies, local storage and IndexedDB are gone for good; sessions that name it
              later start fresh (or create it again with Save changes).
            </>
          )
        }
        confirmLabel="Delete profile"
        pending={remove.isPending}
        error={remove.error?.message}
        onCancel={() => {
          setAsking(null);
          remove.reset();
        }}
        onConfirm={() => asking && remove.mutate(asking.name, { onSuccess: () => setAsking(null) })}
      />
      <p className="mb-2 text-xs text-slate-500 lg:hidden" data-testid="profiles-scroll-hint">
        The table scrolls sideways for more columns; Delete stays at the right edge.
      </p>
      <table className="w-full min-w-[720px] text-left text-sm">
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-2 pr-3 font-medium">Name</th>
            <th className="py-2 pr-3 font-medium">Size</th>
            <th className="py-2 pr-3 font-medium">Updated</th>
            <th className="py-2 pr-3 font-medium">Last used</th>
            <th className="py-2 pr-3 font-medium">In use by</th>
            <th className="sticky right-0 bg-white py-2 pl-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {profiles.data.map((p) => (
            <tr key={p.name} data-testid="profile-row" data-name={p.name}>
              <td className="py-2 pr-3 font-mono font-medium text-slate-900">{p.name}</td>
              <td className="whitespace-nowrap py-2 pr-3 text-slate-600">{formatBytes(p.size_bytes ?? 0)}</td>
              <td className="whitespace-nowrap py-2 pr-3 text-slate-600">
                {p.updated_at ? formatTime(p.updated_at) : "—"}
              </td>
              <td className="whitespace-nowrap py-2 pr-3 text-slate-600">
                {p.last_used_at ? formatTime(p.last_used_at) : "—"}
              </td>
              <td className="py-2 pr-3">
                {p.in_use_by ? (
                  <Link
                    href={`/sessions/${p.in_use_by}`}
                    className="font-mono text-xs text-brand-700 underline underline-offset-2"
                  >
                    {p.in_use_by}
                  </Link>
                ) : (
                  <span className="text-slate-500">free</span>
                )}
              </td>
              <td className="sticky right-0 bg-white py-2 pl-2 text-right shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.15)]">
                <Button
                  variant="danger"
                  onClick={() => setAsking(p)}
                  disabled={Boolean(p.in_use_by)}
                  title={p.in_use_by ? "A session is saving into it; end that session first" : undefined}
                  aria-label={`Delete profile ${p.name}`}
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
