"use client";

import { formatCost } from "@/components/tasks/task-status";
import type { TaskSummary } from "@/components/tasks/use-tasks";
import { formatTime } from "@/components/ui/format";

/** "1 min 5 s", "12 s", "340 ms". */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1_000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Who started a task: an API key or the dashboard. */
export const starterOf = (task: TaskSummary) => (task.started_by.type === "api_key" ? "an API key" : "the dashboard");

/** Start time, duration (so far, while it runs), starter and cost: what tells two runs apart. */
export function TaskFacts({ task, now }: { task: TaskSummary; now?: number }) {
  const started = task.started_at ?? task.created_at;
  const end = task.ended_at ? Date.parse(task.ended_at) : (now ?? Date.now());
  return (
    <>
      <span data-testid="task-started" title={started}>
        started {formatTime(started)}
      </span>
      <span data-testid="task-duration">
        {task.ended_at ? "took" : "running for"} {formatDuration(end - Date.parse(started))}
      </span>
      <span data-testid="task-starter">by {starterOf(task)}</span>
      <span>{formatCost(task.cost_usd)}</span>
    </>
  );
}
