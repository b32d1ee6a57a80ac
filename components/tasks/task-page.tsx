"use client";

import Link from "next/link";
import { useState } from "react";
import { HandoffBanner } from "@/components/handoff/handoff-banner";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { TaskControls } from "@/components/tasks/task-controls";
import { TaskFacts } from "@/components/tasks/task-facts";
import { TaskReplay } from "@/components/tasks/task-replay";
import { TaskScreen } from "@/components/tasks/task-screen";
import { TaskStatus } from "@/components/tasks/task-status";
import { TaskSteps } from "@/components/tasks/task-steps";
import { isLive, useTask, type TaskObject } from "@/components/tasks/use-tasks";

/** Messages sent from this page that no step has taken yet (each step lists the ones it took). */
function stillQueued(sent: string[], task: TaskObject): string[] {
  const queued = [...sent];
  for (const taken of task.steps.flatMap((s) => s.injected_messages)) {
    const at = queued.indexOf(taken);
    if (at >= 0) queued.splice(at, 1);
  }
  return queued;
}

/** How the task ended, in words: a person's Stop is not an error. */
function TaskEnd({ task }: { task: TaskObject }) {
  if (task.status === "stopped")
    return (
      <p className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700" data-testid="task-stopped">
        Stopped before it finished{task.end_reason === "stopped" ? " (someone pressed Stop)" : ""}.
      </p>
    );
  if (!task.error) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {task.error.message}
    </p>
  );
}

/** /tasks/{id}: the session's screen beside the steps as they come, with the controls. */
export function TaskPage({ id }: { id: string }) {
  const query = useTask(id);
  const [sent, setSent] = useState<string[]>([]);
  const back = (
    <Link href="/tasks" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
      ← Tasks
    </Link>
  );
  if (query.isPending)
    return (
      <div className="space-y-4">
        {back}
        <p role="status" className="text-sm text-slate-500">
          Loading the task…
        </p>
      </div>
    );
  if (!query.data) {
    const notFound = (query.error as { status?: number } | null)?.status === 404;
    return (
      <div className="space-y-4">
        {back}
        {notFound ? (
          <p role="alert" className="text-sm text-slate-700">
            There is no task {id} in this organization.
          </p>
        ) : (
          <ErrorState
            what="The task could not be loaded"
            detail={query.error?.message}
            onRetry={() => void query.refetch()}
          />
        )}
      </div>
    );
  }
  const task = query.data;
  const live = isLive(task.status);
  return (
    <div className="space-y-4">
      {back}
      <header className="space-y-2">
        <h1 className="break-words text-lg font-semibold text-slate-900">{task.instruction}</h1>
        <div className="flex flex-wrap items-center gap-3 text-xs text-slate-600">
          <TaskStatus status={task.status} reason={task.end_reason} />
          <span data-testid="task-step-count">
            {task.step_count}/{task.max_steps} steps
          </span>
          <TaskFacts task={task} />
          <span data-testid="task-kind">
            {task.kind} · {task.model}
          </span>
        </div>
        {task.result && (
          <p className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="task-result">
            Result: {task.result}
          </p>
        )}
        <TaskEnd task={task} />
        <HandoffBanner task={task} />
        {query.error && (
          <p role="alert" className="text-xs text-amber-800">
            Could not refresh this task ({query.error.message}); showing what was last read.
          </p>
        )}
      </header>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_28rem]">
        <div className="min-w-0 space-y-4">
          <Card title="Screen">{task.computer_id ? <TaskScreen task={task} /> : null}</Card>
          {/* The controls right under the screen: while the task runs the replay only says it records. */}
          {live && (
            <Card title="Control">
              <TaskControls task={task} onQueued={(m) => setSent((all) => [...all, m])} />
            </Card>
          )}
          <Card title="Replay">
            <TaskReplay task={task} />
          </Card>
        </div>
        <Card title={`Steps (${task.step_count})`}>
          <TaskSteps
            steps={task.steps}
            live={live}
            screen={task.viewport}
            result={task.result}
            queued={stillQueued(sent, task)}
          />
        </Card>
      </div>
    </div>
  );
}
