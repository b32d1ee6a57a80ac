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
/** The last screen is stored while the session ends, just after its row says so: look again for this long. */
const FINAL_SCREENSHOT_WAIT_MS = 10_000;

/** An ended session no longer changes, except for its last screen arriving just after the end. */
function stillChanging(session: SessionView | undefined): boolean {
  if (session?.status !== "terminated") return true;
  if (session.final_screenshot || !session.terminated_at) return false;
  return Date.parse(session.now) - Date.parse(session.terminated_at) < FINAL_SCREENSHOT_WAIT_MS;
}

export function useSessionDetail(id: string) {
  return useQuery({
    queryKey: queryKeys.sessions.detail(id),
    queryFn: (): Promise<SessionView> => fetchWithSkew<SessionDetail>(`/api/sessions/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (stillChanging(query.state.data) ? DETAIL_REFRESH_MS : false),
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

/** Back or Forward in tab `tabId` (the mouse's history buttons): an ActionResult like the navigation's. */
export const useTabHistory = (id: string) =>
  useTabMutation(id, (base, { tabId, history }: { tabId: string; history: "back" | "forward" }) =>
    fetchJson<{ status: string; error_message?: string }>(`${base}/${encodeURIComponent(tabId)}/navigate`, {
      method: "POST",
      body: JSON.stringify({ history }),
    }),
  );

export const useCloseTab = (id: string) =>
  useTabMutation(id, (base, tabId: string) => fetchJson(`${base}/${encodeURIComponent(tabId)}`, { method: "DELETE" }));
