"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/lib/fetch-json";

export interface WaitingTasks {
  count: number;
  data: { task_id: string; instruction: string; reason: string | null }[];
}

/** Under the tasks key, so every task control (resume, hand-off) refreshes it at once. */
export const waitingTasksKey = () => ["tasks", "waiting"] as const;

/** The organization's tasks waiting for a person: one small read every 5 s, paused while the tab is hidden. */
export function useWaitingTasks() {
  return useQuery({
    queryKey: waitingTasksKey(),
    queryFn: () => fetchJson<WaitingTasks>("/api/tasks/waiting"),
    refetchInterval: 5_000,
    refetchIntervalInBackground: false,
  });
}
