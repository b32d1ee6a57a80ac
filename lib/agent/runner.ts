// The one owner of running task loops in this process (a singleton): each
// task's TaskControl and its deadline, the end of a task whose session ends (the
// runner subscribes at the `tasks` stage of the session-end event, docs/computers.md
// "How a session ends"), and the clean-up when it ends (the final event, the session
// closed when the task made it). Shutdown interrupts every loop and waits for their ends to be
// stored, so a stopped server leaves each task with a clear status.
import { closeComputer, type ComputerRef } from "@/lib/agent/computer";
import { keepLastStepScreenshot } from "@/lib/agent/keep-last-screenshot";
import { stopTaskReplays } from "@/lib/computers/session-replays";
import { TaskControl, type TaskEvent } from "@/lib/agent/control";
import { runLoop, type TaskEnd } from "@/lib/agent/loop";
import { startRunClock } from "@/lib/agent/run-clock";
import type { TaskPlan } from "@/lib/agent/schema";
import { getSessionManager } from "@/lib/computers/registry";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { singleton, singletonKey } from "@/lib/singleton";

interface RunningTask {
  organizationId: string;
  /** The session the task drives. */
  computerId: string;
  control: TaskControl;
  finished: Promise<TaskEnd>;
}

/** How long an ended task's events stay for streams that resume after its end. */
const ENDED_EVENTS_KEPT_MS = 10 * 60_000;

export class TaskRunner {
  private readonly tasks = new Map<string, RunningTask>();
  /** Ended tasks of this process, kept ENDED_EVENTS_KEPT_MS for their event history. */
  private readonly ended = new Map<string, RunningTask>();
  private closing = false;

  constructor() {
    getSessionManager().ends.subscribe("tasks", ({ sessionId, reason }) => {
      for (const task of this.tasks.values())
        if (task.computerId === sessionId)
          task.control.interrupt("session_ended", `The task's session ${sessionId} ended (${reason})`);
    });
  }

  get(taskId: string, organizationId: string): RunningTask | undefined {
    const task = this.tasks.get(taskId);
    return task && task.organizationId === organizationId ? task : undefined;
  }

  /** A task's events, running or recently ended in this process (for GET /agent/tasks/{id}/stream). */
  events(taskId: string, organizationId: string): TaskControl | undefined {
    const task = this.tasks.get(taskId) ?? this.ended.get(taskId);
    return task && task.organizationId === organizationId ? task.control : undefined;
  }

  get size(): number {
    return this.tasks.size;
  }

  /**
   * Starts a loop in the background. `onEvent` (a stream's listener) is subscribed before
   * the first event, so a stream started with the task misses nothing.
   */
  start(input: {
    taskId: string;
    plan: TaskPlan;
    computer: ComputerRef;
    ownsComputer: boolean;
    onEvent?: (event: TaskEvent) => void;
  }): RunningTask {
    const control = new TaskControl(getEnv().AGENT_TASK_EVENT_HISTORY);
    if (input.onEvent) control.subscribe(input.onEvent);
    if (this.closing) control.interrupt("server_shutdown", "The server is shutting down");
    const { taskId, plan, computer } = input;
    // Time waiting for a person does not count (run-clock.ts).
    const stopClock = plan.maxDurationSeconds
      ? startRunClock(control, plan.maxDurationSeconds, () =>
          control.interrupt("max_duration", `The task ran past max_duration_seconds (${plan.maxDurationSeconds} s)`),
        )
      : null;
    control.emit({ event: "started", data: { task_id: taskId, computer_id: computer.computerId, status: "running" } });
    const finished = (async () => {
      const end = await runLoop({ taskId, plan, computer, control });
      stopClock?.();
      await keepLastStepScreenshot({ taskId, computerId: computer.computerId });
      if (input.ownsComputer && plan.terminateOnCompletion) {
        await closeComputer(computer).catch((err) =>
          getLogger().error({ err, taskId }, "agent task session not ended"),
        );
      } else await stopTaskReplays(taskId).catch((err) => getLogger().warn({ err, taskId }, "task replay not stopped"));
      const self = this.tasks.get(taskId);
      this.tasks.delete(taskId);
      if (self) this.ended.set(taskId, self);
      setTimeout(() => this.ended.delete(taskId), ENDED_EVENTS_KEPT_MS).unref();
      const data = {
        task_id: taskId,
        status: end.status,
        end_reason: end.endReason,
        result: end.result,
        ...(end.errorMessage ? { error: { code: end.endReason, message: end.errorMessage } } : {}),
      };
      control.emit({
        event: end.status === "completed" ? "completed" : end.status === "stopped" ? "stopped" : "failed",
        data,
      });
      return end;
    })();
    const running = {
      organizationId: computer.caller.organizationId,
      computerId: computer.computerId,
      control,
      finished,
    };
    this.tasks.set(taskId, running);
    return running;
  }

  /** Shutdown: every loop is interrupted and its end stored before the sessions go. */
  async stopAll(): Promise<void> {
    this.closing = true;
    const running = [...this.tasks.values()];
    for (const task of running) task.control.interrupt("server_shutdown", "The server shut down while the task ran");
    await Promise.allSettled(running.map((task) => task.finished));
  }
}

const RUNNER = singletonKey<TaskRunner>("agentTaskRunner");

export const getTaskRunner = () => singleton(RUNNER, () => new TaskRunner());
