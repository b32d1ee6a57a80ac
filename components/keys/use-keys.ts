"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";

// Type-only: erased at compile time, so no server code reaches the browser.
export type { ApiKeySummary as ApiKeyRow } from "@/lib/auth/api-keys";
import type { ApiKeySummary as ApiKeyRow } from "@/lib/auth/api-keys";

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
}

const KEY = queryKeys.apiKeys();

export function useApiKeys() {
  return useQuery({ queryKey: KEY, queryFn: () => fetchJson<{ data: ApiKeyRow[] }>("/api/keys").then((r) => r.data) });
}

export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      fetchJson<CreatedKey>("/api/keys", { method: "POST", body: JSON.stringify({ name }) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

export function useRevokeKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson(`/api/keys/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
