"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/fetch-json";
// Type-only: erased at compile time, so no server code reaches the browser.
import type { DashboardProfile } from "@/lib/computers/session-profiles";

export type { DashboardProfile };

const KEY = ["profiles"] as const;

/** The organization's profiles: every field for owners and admins, names only for members (listProfilesAs). */
export function useProfiles() {
  return useQuery({
    queryKey: KEY,
    queryFn: () => fetchJson<{ data: DashboardProfile[] }>("/api/profiles").then((r) => r.data),
    // "In use by" changes as sessions start and end elsewhere.
    refetchInterval: 5_000,
  });
}

export function useDeleteProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => fetchJson(`/api/profiles/${encodeURIComponent(name)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
