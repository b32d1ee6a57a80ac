"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMe } from "@/components/shell/use-me";
import { authClient } from "@/lib/auth/client";

export function OrgSwitcher() {
  const { data, isPending } = useMe();
  const queryClient = useQueryClient();
  const router = useRouter();
  // While /api/me loads, the selector's place is held at its size: the navigation below it
  // must not jump down when it arrives (a layout shift right after login).
  if (isPending) return <OrgSwitcherPlaceholder />;
  if (!data?.organization) return null;

  async function switchTo(organizationId: string) {
    await authClient.organization.setActive({ organizationId });
    // Everything cached belongs to the previous organization.
    await queryClient.invalidateQueries();
    router.refresh();
  }

  return (
    <label className="block min-w-0 text-xs text-slate-500">
      <span className="mb-1 block">Organization</span>
      <select
        aria-label="Organization"
        value={data.organization.id}
        onChange={(e) => void switchTo(e.target.value)}
        className="w-full truncate rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800"
      >
        {data.organizations.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function OrgSwitcherPlaceholder() {
  return (
    <div className="block text-xs text-slate-500" aria-hidden data-testid="org-switcher-loading">
      <span className="mb-1 block">Organization</span>
      <div className="h-[34px] animate-pulse rounded-md border border-slate-200 bg-slate-100" />
    </div>
  );
}
