"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/fetch-json";

export interface Budgets {
  month_start: string;
  organization: { monthly_budget_usd: number | null; spent_usd: number };
  keys: { id: string; monthly_budget_usd: number | null; spent_usd: number }[];
}

const KEY = ["budgets"];

export function useBudgets() {
  return useQuery({ queryKey: KEY, queryFn: () => fetchJson<Budgets>("/api/budgets") });
}

/** Sets a budget (`keyId` null: the organization's); `usd` null removes the limit. */
export function useSetBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ keyId, usd }: { keyId: string | null; usd: number | null }) =>
      fetchJson(keyId ? `/api/keys/${keyId}` : "/api/budgets", {
        method: keyId ? "PATCH" : "PUT",
        body: JSON.stringify({ monthly_budget_usd: usd }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
