"use client";

import Link from "next/link";
import { LiveViewer } from "@/components/session/live-viewer";
import { useSessionDetail } from "@/components/session/use-session";
import type { FinalScreenshotRef } from "@/lib/computers/session-dashboard";
import { StatusBadge } from "@/components/sessions/status-badge";
import { StepShot } from "@/components/tasks/step-shot";
import type { TaskObject } from "@/components/tasks/use-tasks";
import { ErrorState } from "@/components/ui/error-state";

/**
 * The task's last screen once its session has ended: the session's own last screen (taken as it
 * ended) when one was kept, else the last screenshot a step took (both kept 7 days).
 */
function LastScreen({ task, final }: { task: TaskObject; final?: FinalScreenshotRef | null }) {
  const last = task.steps.findLast((s) => s.screenshot_url);
  const caption = final
    ? "Its screen as the session ended:"
    : last
      ? `Its last screen, after step ${last.index + 1}:`
      : "No screenshot was taken before it ended.";
  return (
    <div className="space-y-2" data-testid="screen-ended">
      <p className="text-sm text-slate-600">The task's session has ended. {caption}</p>
      {final ? (
        <div className="max-w-3xl" data-testid="last-screenshot">
          {/* biome-ignore lint/performance/noImgElement: a member route of this server, not an optimizable asset */}
          <img
            src={final.url}
            alt="The task's last screen"
            width={task.viewport.width}
            height={task.viewport.height}
            className="block h-auto w-full rounded border border-slate-200"
          />
        </div>
      ) : (
        last && (
          <div className="max-w-3xl [&>a]:sm:w-full" data-testid="last-screenshot">
            <StepShot url={last.screenshot_url} screen={task.viewport} mark={null} label="The task's last screenshot" />
          </div>
        )
      )}
    </div>
  );
}

/**
 * The task's session as it is now, whatever the task's own state: live while the session runs
 * (a task on an existing session can end and leave it running), its last screenshot once it ended.
 */
export function TaskScreen({ task }: { task: TaskObject }) {
  const session = useSessionDetail(task.computer_id!);
  if (session.data?.status === "terminated") return <LastScreen task={task} final={session.data.final_screenshot} />;
  if (session.isPending)
    return (
      <p role="status" className="text-sm text-slate-500">
        Connecting to the screen…
      </p>
    );
  if (!session.data) {
    // A session the organization no longer has (deleted with its data): the screenshots still tell.
    if ((session.error as { status?: number } | null)?.status === 404) return <LastScreen task={task} />;
    return (
      <ErrorState
        what="The session could not be read"
        detail={session.error?.message}
        onRetry={() => void session.refetch()}
      />
    );
  }
  return (
    <div className="space-y-2">
      <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600" data-testid="task-session-state">
        <Link
          href={`/sessions/${session.data.id}`}
          className="font-mono text-brand-700 underline-offset-2 hover:underline"
        >
          {session.data.id}
        </Link>
        <StatusBadge status={session.data.status} reason={session.data.termination_reason} />
        <span>{session.data.kind}</span>
      </p>
      <LiveViewer
        wsUrl={session.data.endpoints.ws}
        viewport={session.data.viewport}
        onEnded={() => void session.refetch()}
      />
    </div>
  );
}
