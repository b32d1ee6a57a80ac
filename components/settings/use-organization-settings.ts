"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";
import type { NextOrganization } from "@/lib/auth/organization-lifecycle";
import type { OrganizationSettings } from "@/lib/settings/organization-settings";

export type { NextOrganization, OrganizationSettings };

export function useOrganizationSettings() {
  return useQuery({
    queryKey: queryKeys.organizationSettings(),
    queryFn: () => fetchJson<OrganizationSettings>("/api/organization"),
  });
}

export function useRenameOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name?: string; slug?: string }) =>
      fetchJson<{ id: string; name: string; slug: string }>("/api/organization", {
        method: "PATCH",
        body: JSON.stringify(body),
      }),
    // The shell's organization switcher shows the name too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.organizationSettings() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.me() }),
      ]),
  });
}

/** After leaving or deleting: a full load of the next team's sessions, or the "create a team" page. */
export function landAfter(next: NextOrganization) {
  window.location.assign(next.next_organization ? "/sessions" : "/create-team");
}

export function useLeaveOrganization() {
  return useMutation({
    mutationFn: () => fetchJson<NextOrganization>("/api/organization/leave", { method: "POST" }),
    onSuccess: landAfter,
  });
}

export function useDeleteOrganization() {
  return useMutation({
    mutationFn: (confirmSlug: string) =>
      fetchJson<NextOrganization>("/api/organization", {
        method: "DELETE",
        body: JSON.stringify({ confirm_slug: confirmSlug }),
      }),
    onSuccess: landAfter,
  });
}
