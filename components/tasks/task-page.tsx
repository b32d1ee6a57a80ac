"use client";

import Link from "next/link";
import { LiveViewer } from "@/components/session/live-viewer";
import { useSessionDetail } from "@/components/session/use-session";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { TaskControls } from "@/components/tasks/task-controls";
import { formatCost, TaskStatus } from "@/components/tasks/task-status";
import { TaskSteps } from "@/components/tasks/task-steps";
import { isLive, useTask } from "@/components/tasks/use-tasks";

/** The task's session screen while it is live; after that, the last step's screenshot stands for it. */
function TaskScreen({ computerId, live }: { computerId: string; live: boolean }) {
  const session = useSessionDetail(computerId);
  if (!live || session.data?.status === "terminated")
    return (
      <p className="text-sm text-slate-600" data-testid="screen-ended">
        The task's session has ended; each step's screenshot is in the list.
      </p>
    );
  if (session.isPending)
    return (
      <p role="status" className="text-sm text-slate-500">
        Connecting to the screen…
      </p>
    );
  if (!session.data)
    return (
      <ErrorState
        what="The session could not be read"
        detail={session.error?.message}
        onRetry={() => void session.refetch()}
      />
    );
  return (
    <LiveViewer
      wsUrl={session.data.endpoints.ws}
      viewport={session.data.viewport}
      onEnded={() => void session.refetch()}
    />
  );
}

/** /tasks/{id}: the live screen beside the steps as they come, with the controls. */
export function TaskPage({ id }: { id: string }) {
  const query = useTask(id);
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
          <span>{formatCost(task.cost_usd)}</span>
          <span>
            {task.kind} · {task.model}
          </span>
          {task.computer_id && (
            <Link href={`/sessions/${task.computer_id}`} className="text-brand-700 underline-offset-2 hover:underline">
              {task.computer_id}
            </Link>
          )}
        </div>
        {task.result && (
          <p className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="task-result">
            Result: {task.result}
          </p>
        )}
        {task.error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {task.error.message}
          </p>
        )}
        {query.error && (
          <p role="alert" className="text-xs text-amber-800">
            Could not refresh this task ({query.error.message}); showing what was last read.
          </p>
        )}
      </header>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 space-y-4">
          <Card title="Screen">
            {task.computer_id ? <TaskScreen computerId={task.computer_id} live={live} /> : null}
          </Card>
          {live && (
            <Card title="Control">
              <TaskControls task={task} />
            </Card>
          )}
        </div>
        <Card title={`Steps (${task.step_count})`}>
          <TaskSteps steps={task.steps} live={live} />
        </Card>
      </div>
    </div>
  );
}
