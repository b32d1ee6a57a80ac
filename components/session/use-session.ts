"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchWithSkew } from "@/components/sessions/use-sessions";
import { fetchJson } from "@/lib/fetch-json";
// Type-only: erased at compile time, so no server code reaches the browser.
import type { SessionDetail, SessionTab } from "@/lib/computers/session-dashboard";

export type { SessionDetail, SessionTab };

/** The session, plus how far the server's clock is ahead of this browser's (measured per fetch, as the list does). */
export type SessionView = SessionDetail & { skew_ms: number };

const DETAIL_REFRESH_MS = 2_000;

export function useSessionDetail(id: string) {
  return useQuery({
    queryKey: queryKeys.sessions.detail(id),
    queryFn: (): Promise<SessionView> => fetchWithSkew<SessionDetail>(`/api/sessions/${encodeURIComponent(id)}`),
    // An ended session no longer changes: stop polling it.
    refetchInterval: (query) => (query.state.data?.status === "terminated" ? false : DETAIL_REFRESH_MS),
    // A 404 will stay a 404: show "not found" at once instead of retrying.
    retry: (failures, error) => (error as { status?: number }).status !== 404 && failures < 2,
  });
}

/** A tab operation on session `id`; the session (and its tab list) is read again after it. */
function useTabMutation<A, R = unknown>(id: string, request: (base: string, args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  const base = `/api/sessions/${encodeURIComponent(id)}/tabs`;
  return useMutation({
    mutationFn: (args: A) => request(base, args),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.detail(id) }),
  });
}

export const useOpenTab = (id: string) =>
  useTabMutation(id, (base, url: string) =>
    fetchJson(base, { method: "POST", body: JSON.stringify(url ? { url } : {}) }),
  );

export const useSwitchTab = (id: string) =>
  useTabMutation(id, (base, tabId: string) =>
    fetchJson(`${base}/${encodeURIComponent(tabId)}/switch`, { method: "POST" }),
  );

/**
 * Loads `url` in tab `tabId` (the address field): an ActionResult, status "error" with the reason when the page did not
 * load.
 */
export const useNavigateTab = (id: string) =>
  useTabMutation(id, (base, { tabId, url }: { tabId: string; url: string }) =>
    fetchJson<{ status: string; error_message?: string }>(`${base}/${encodeURIComponent(tabId)}/navigate`, {
      method: "POST",
      body: JSON.stringify({ url }),
    }),
  );

export const useCloseTab = (id: string) =>
  useTabMutation(id, (base, tabId: string) => fetchJson(`${base}/${encodeURIComponent(tabId)}`, { method: "DELETE" }));
