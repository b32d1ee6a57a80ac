"use client";

import { useEffect, useState } from "react";
import { ReplayNotReady, ReplayPlayer, type ReplayMarker } from "@/components/session/replay-player";
import { useSessionReplays } from "@/components/session/use-replays";
import { describeAction } from "@/components/tasks/task-steps";
import { isLive, type TaskObject } from "@/components/tasks/use-tasks";
import { ErrorState } from "@/components/ui/error-state";

/** Each step as a moment of the video: when it was stored (after its action and screenshot). */
export function stepMarkers(task: TaskObject): ReplayMarker[] {
  return task.steps.map((step) => ({
    key: `step-${step.index}`,
    at: Date.parse(step.created_at),
    label: `Step ${step.index + 1}: ${describeAction(step.screen_action as Record<string, unknown> | null)}`,
    tone: step.error ? "error" : "plain",
  }));
}

/** The task's recording (tasks record by default) with its steps as markers that seek the video. */
export function TaskReplay({ task }: { task: TaskObject & { replay_id?: string | null } }) {
  const replays = useSessionReplays(task.computer_id ?? "", isLive(task.status), Boolean(task.replay_id));
  // A cached list may have been read before the task began (the session's page shares it, and it
  // stays fresh for a few seconds), so a replay missing from it is looked up once more before the
  // card says it is gone.
  const missing = Boolean(replays.data && !replays.data.some((r) => r.replay_id === task.replay_id));
  const [lookedAgain, setLookedAgain] = useState(false);
  const { refetch } = replays;
  useEffect(() => {
    if (missing && !lookedAgain) void refetch().finally(() => setLookedAgain(true));
  }, [missing, lookedAgain, refetch]);
  if (!task.replay_id || !task.computer_id)
    return (
      <p className="text-sm text-slate-600" data-testid="replays-empty">
        This task was not recorded (it was started with record: false).
      </p>
    );
  if (replays.isPending || (missing && !lookedAgain))
    return (
      <p role="status" className="text-sm text-slate-500" data-testid="replays-loading">
        Loading the replay…
      </p>
    );
  if (replays.isError && !replays.data)
    return (
      <ErrorState
        what="The replay could not be loaded"
        detail={replays.error.message}
        onRetry={() => void replays.refetch()}
      />
    );
  const replay = replays.data.find((r) => r.replay_id === task.replay_id);
  if (!replay)
    return (
      <p className="text-sm text-slate-600" data-testid="replays-empty">
        The task's replay {task.replay_id} is no longer kept (replays expire after their retention).
      </p>
    );
  if (replay.status !== "ready") return <ReplayNotReady replay={replay} />;
  return <ReplayPlayer replay={replay} markers={stepMarkers(task)} />;
}
