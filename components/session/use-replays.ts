"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";
// Type-only: erased at compile time, so no server code reaches the browser.
import type { DashboardReplay } from "@/lib/computers/session-dashboard";

export type { DashboardReplay };

const unfinished = (r: DashboardReplay) => r.status === "recording" || r.status === "processing";

/**
 * A session's replays, oldest first. Polled while one is recorded or finished, and every few
 * seconds while the session is live (a recording started through the API shows up); an ended
 * session's list stops changing once its videos are done.
 */
export function useSessionReplays(sessionId: string, live: boolean, enabled = true) {
  return useQuery({
    enabled,
    queryKey: queryKeys.sessions.replays(sessionId),
    queryFn: () =>
      fetchJson<{ data: DashboardReplay[] }>(`/api/sessions/${encodeURIComponent(sessionId)}/replays`).then(
        (r) => r.data,
      ),
    refetchInterval: (query) => (query.state.data?.some(unfinished) ? 1_000 : live ? 5_000 : false),
  });
}

/** Record (POST …/replays) and Stop recording (POST …/replays/{id}/stop); the list is read again after each. */
export function useRecording(sessionId: string) {
  const queryClient = useQueryClient();
  const base = `/api/sessions/${encodeURIComponent(sessionId)}/replays`;
  const settle = () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.replays(sessionId) });
  const start = useMutation({
    mutationFn: () => fetchJson<DashboardReplay>(base, { method: "POST", body: JSON.stringify({}) }),
    onSettled: settle,
  });
  const stop = useMutation({
    mutationFn: (replayId: string) =>
      fetchJson<DashboardReplay>(`${base}/${encodeURIComponent(replayId)}/stop`, { method: "POST" }),
    onSettled: settle,
  });
  return { start, stop };
}
