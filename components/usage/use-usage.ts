"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";
import type { UsageReport } from "@/lib/usage/usage-report";

export type { UsageReport };

/**
 * The report for a range query string (`range=7d`, `from=…&to=…`); the previous range stays shown while the next loads.
 */
export function useUsage(rangeQuery = "") {
  return useQuery({
    queryKey: queryKeys.usage(rangeQuery),
    queryFn: () => fetchJson<UsageReport>(`/api/usage${rangeQuery ? `?${rangeQuery}` : ""}`),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}
