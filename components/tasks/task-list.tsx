"use client";

import Link from "next/link";
import { useTick } from "@/components/sessions/use-sessions";
import { TaskFacts } from "@/components/tasks/task-facts";
import { TaskStatus } from "@/components/tasks/task-status";
import { isLive, useTaskList } from "@/components/tasks/use-tasks";
import { ErrorState } from "@/components/ui/error-state";

/** The organization's tasks: status, start time, duration, starter, steps and cost; each opens its page. */
export function TaskList() {
  const list = useTaskList();
  const anyLive = list.data?.data.some((t) => isLive(t.status)) ?? false;
  const now = useTick(anyLive ? 1_000 : 60_000);
  if (list.isPending)
    return (
      <p role="status" className="text-sm text-slate-500">
        Loading tasks…
      </p>
    );
  if (list.isError && !list.data)
    return (
      <ErrorState
        what="The tasks could not be loaded"
        detail={list.error.message}
        onRetry={() => void list.refetch()}
      />
    );
  const tasks = list.data.data;
  if (tasks.length === 0) {
    return (
      <p className="text-sm text-slate-600" data-testid="tasks-empty">
        No tasks yet. Start one with the form below, or with{" "}
        <code className="rounded bg-slate-100 px-1">POST /agent/tasks</code>.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-200" aria-label="Tasks">
      {tasks.map((task) => (
        <li key={task.task_id} data-testid="task-row">
          <Link
            href={`/tasks/${task.task_id}`}
            className="flex flex-col gap-1 py-3 hover:bg-slate-50 focus-visible:bg-slate-50"
          >
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="min-w-0 flex-1 basis-48 truncate text-sm font-medium text-slate-900">
                {task.instruction}
              </span>
              <TaskStatus status={task.status} reason={task.end_reason} />
            </span>
            <span className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600">
              <TaskFacts task={task} now={now} />
              <span>
                {task.step_count}/{task.max_steps} steps
              </span>
              <span className="text-slate-500">
                {task.kind} · {task.model}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
