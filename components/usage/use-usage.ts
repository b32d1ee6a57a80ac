"use client";

import { useQuery } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";
import type { UsageReport } from "@/lib/models/usage-report";

export type { UsageReport };

export function useUsage() {
  return useQuery({
    queryKey: queryKeys.usage(),
    queryFn: () => fetchJson<UsageReport>("/api/usage"),
    refetchInterval: 30_000,
  });
}
