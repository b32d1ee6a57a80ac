"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/lib/fetch-json";
// Type-only: erased at compile time, so no server code reaches the browser.
import type { TaskObject, TaskSummary } from "@/lib/agent/present";

export type { TaskObject, TaskSummary };

export const taskKeys = {
  all: () => ["tasks"] as const,
  list: () => ["tasks", "list"] as const,
  detail: (id: string) => ["tasks", "detail", id] as const,
};

const LIVE = new Set(["queued", "running", "paused", "awaiting_human"]);
export const isLive = (status: string) => LIVE.has(status);

/** The organization's tasks, newest first; refreshed every 2 s while any runs. */
export function useTaskList() {
  return useQuery({
    queryKey: taskKeys.list(),
    queryFn: () => fetchJson<{ data: TaskSummary[] }>("/api/tasks"),
    refetchInterval: (query) => (query.state.data?.data.some((t) => isLive(t.status)) ? 2_000 : 10_000),
  });
}

/** One task with its steps, polled every second while it runs (steps appear as they are stored). */
export function useTask(id: string) {
  return useQuery({
    queryKey: taskKeys.detail(id),
    queryFn: () => fetchJson<TaskObject>(`/api/tasks/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data && !isLive(query.state.data.status) ? false : 1_000),
    retry: (failures, error) => (error as { status?: number }).status !== 404 && failures < 2,
  });
}

export interface StartTaskInput {
  credentials?: string[];
  instruction: string;
  /** A new session's kind; absent with computer_id (the session has its own). */
  kind?: "browser" | "desktop";
  computer_id?: string;
  on_missing_computer?: "fail";
  model: string;
  max_steps: number;
  start_url?: string;
  /** A named browser profile the new session starts from (docs/profiles.md). */
  profile?: { name: string; save_changes?: true };
}

export function useStartTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartTaskInput) =>
      fetchJson<{ task_id: string }>("/api/tasks", { method: "POST", body: JSON.stringify(input) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.all() }),
  });
}

/** Pause, resume (with a hand-off's `note`), stop, inject a message (`message` set), or hand off (`reason`). */
export function useTaskControl(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      action,
      ...body
    }: {
      action: "pause" | "resume" | "stop" | "messages" | "handoff";
      message?: string;
      note?: string;
      reason?: string;
    }) =>
      fetchJson<{ status: string }>(`/api/tasks/${encodeURIComponent(id)}/${action}`, {
        method: "POST",
        body: JSON.stringify(body),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.all() }),
  });
}
