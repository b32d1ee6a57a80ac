"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";
// Type-only: erased at compile time, so no server code reaches the browser.
import type { DashboardCredential } from "@/lib/credentials/dashboard";

export type { DashboardCredential };

export interface NewCredential {
  name: string;
  domain: string;
  values: Record<string, string>;
  totp_secret?: string;
}

const KEY = queryKeys.credentials();

export function useCredentials() {
  return useQuery({
    queryKey: KEY,
    queryFn: () => fetchJson<{ data: DashboardCredential[]; can_manage: boolean }>("/api/credentials"),
  });
}

export function useCreateCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewCredential) =>
      fetchJson<DashboardCredential>("/api/credentials", { method: "POST", body: JSON.stringify(input) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

export function useDeleteCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => fetchJson(`/api/credentials/${encodeURIComponent(name)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
