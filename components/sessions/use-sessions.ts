"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";
// Type-only: erased at compile time, so no server code reaches the browser.
import type {
  DashboardSession,
  DashboardSessionList,
  SessionCreateOptions,
  SessionFilter,
} from "@/lib/computers/session-dashboard";

export type { DashboardSession, SessionCreateOptions, SessionFilter };

export interface SessionListParams {
  filter: SessionFilter;
  q: string;
  page: number;
  pageSize: number;
}

/** A page of the list, plus how far the server's clock is ahead of this browser's (measured once per fetch). */
export type SessionPage = DashboardSessionList & { skew_ms: number };

// The server pushes every start and end (/api/sessions/changes); the poll only refreshes tab counts and
// covers a lost stream.
const LIST_REFRESH_MS = 10_000;

/** A dashboard answer that carries the server's `now`, plus how far that clock is ahead of this browser's. */
export async function fetchWithSkew<T extends { now: string }>(url: string): Promise<T & { skew_ms: number }> {
  const sentAt = Date.now();
  const answer = await fetchJson<T>(url);
  // The server read its clock about halfway through the round trip.
  const midpoint = (sentAt + Date.now()) / 2;
  return { ...answer, skew_ms: Date.parse(answer.now) - midpoint };
}

/** Refetches every session list at once when the server says a session started, changed or ended. */
export function useSessionListPush() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const source = new EventSource("/api/sessions/changes");
    source.addEventListener("changed", () => {
      void queryClient.invalidateQueries({ queryKey: ["sessions", "list"] });
    });
    return () => source.close();
  }, [queryClient]);
}

export function useSessionList(params: SessionListParams) {
  useSessionListPush();
  return useQuery({
    queryKey: queryKeys.sessions.list(params),
    queryFn: async (): Promise<SessionPage> => {
      const query = new URLSearchParams({
        filter: params.filter,
        page: String(params.page),
        page_size: String(params.pageSize),
      });
      if (params.q) query.set("q", params.q);
      return fetchWithSkew<DashboardSessionList>(`/api/sessions?${query}`);
    },
    refetchInterval: LIST_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useSessionCreateOptions() {
  return useQuery({
    queryKey: queryKeys.sessions.createOptions(),
    queryFn: () => fetchJson<SessionCreateOptions>("/api/sessions/options"),
  });
}

function useSessionMutation<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all() }),
  });
}

export const useCreateSession = () =>
  useSessionMutation((body: Record<string, unknown>) =>
    fetchJson<{ id: string }>("/api/sessions", { method: "POST", body: JSON.stringify(body) }),
  );

export const useStopSession = () =>
  useSessionMutation((id: string) => fetchJson(`/api/sessions/${id}`, { method: "DELETE" }));

export const useKeepSessionAlive = () =>
  useSessionMutation((id: string) => fetchJson(`/api/sessions/${id}/keepalive`, { method: "POST" }));

/** This browser's clock, re-read every second so countdowns tick between fetches. */
export function useTick(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
