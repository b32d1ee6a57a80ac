"use client";

import Link from "next/link";
import type { DashboardSession } from "@/components/sessions/use-sessions";

const LIVE_TASK = new Set(["queued", "running", "paused", "awaiting_human"]);

/** The agent task driving this session (a link to it), or a link to start one on it. */
export function SessionTask({ session }: { session: DashboardSession }) {
  const task = session.task;
  const ended = session.status === "terminated";
  if (task && LIVE_TASK.has(task.status))
    return (
      <p
        className={
          "flex flex-wrap items-center gap-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm " +
          "text-emerald-900"
        }
        data-testid="session-task-banner"
      >
        <span className="size-2 rounded-full bg-emerald-500" aria-hidden />
        <span className="min-w-0 break-words">
          An agent task drives this session ({task.status}): “{task.instruction}”.
        </span>
        <Link href={`/tasks/${task.id}`} className="font-medium underline underline-offset-2">
          Open the task
        </Link>
      </p>
    );
  return (
    <p className="flex flex-wrap gap-x-3 text-xs text-slate-600" data-testid="session-task-banner">
      {task && (
        <span>
          Last task:{" "}
          <Link href={`/tasks/${task.id}`} className="font-mono text-brand-700 underline-offset-2 hover:underline">
            {task.id}
          </Link>{" "}
          ({task.status})
        </span>
      )}
      {!ended && (
        <Link
          href={`/tasks?session=${encodeURIComponent(session.id)}#start-task`}
          className="font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          Start a task on this session
        </Link>
      )}
    </p>
  );
}
