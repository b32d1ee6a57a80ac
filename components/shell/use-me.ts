"use client";

import { useQuery } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";

export interface Me {
  user: { id: string; email: string; name: string };
  organization: { id: string; name: string; slug: string } | null;
  role: "owner" | "admin" | "member";
  organizations: { id: string; name: string; slug: string; role: string }[];
}

export function useMe() {
  return useQuery({ queryKey: queryKeys.me(), queryFn: () => fetchJson<Me>("/api/me") });
}
