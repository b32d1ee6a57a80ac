// Task events as Server-Sent Events (docs/agent-tasks.md "Streaming").
// POST /agent/tasks/stream starts a task like POST /agent/tasks (a refused
// start is the same JSON 4xx) and follows it; GET /agent/tasks/{id}/stream
// follows a task already started, from its first event or, resumed, after the
// client's `Last-Event-ID` (or from `?from=<seq>`). Every event carries its
// place in the task's stream as its SSE id; a `replay_gap` event says when
// events a resume asked for were no longer kept. Streams end after completed,
// failed or stopped. Events are named after what the public examples'
// streaming server emits (`started`, `action`, `screenshot`, `completed`)
// plus this loop's own (`step`, `message`, `paused`, `resumed`, `needs_human`, `failed`, `stopped`).
import { AppError } from "@/lib/api/errors";
import { SSE_HEADERS, sseStream, type SseChannel } from "@/lib/api/sse";
import type { TaskEvent } from "@/lib/agent/control";
import { getTaskRunner } from "@/lib/agent/runner";
import type { TaskStart } from "@/lib/agent/schema";
import { startTask, type TaskCaller } from "@/lib/agent/service";
import * as store from "@/lib/agent/store";
import { notFound } from "@/lib/api/errors";

const FINAL = new Set(["completed", "failed", "stopped"]);

type Sequenced = TaskEvent & { seq?: number };

function send(channel: SseChannel, taskId: string, event: Sequenced) {
  channel.send(event.event, { ...event.data, ...("task_id" in event.data ? {} : { task_id: taskId }) }, event.seq);
  if (FINAL.has(event.event)) channel.close();
}

export async function streamTask(input: {
  caller: TaskCaller;
  start: TaskStart;
  origin: string;
  signal?: AbortSignal;
}): Promise<Response> {
  // Events that come before the response stream opens wait here, in order.
  const early: Sequenced[] = [];
  let channel: SseChannel | null = null;
  let gone = false;
  const deliver = (event: Sequenced) => {
    if (gone) return; // the client left; the task runs on (GET /agent/tasks/{id} reads it)
    if (!channel) return void early.push(event);
    send(channel, started.task_id, event);
  };
  const started = await startTask({ ...input, onEvent: (event) => deliver(event) });
  const body = sseStream((open) => {
    channel = open;
    for (const event of early.splice(0)) deliver(event);
    return () => {
      channel = null;
      gone = true;
    };
  }, input.signal);
  return new Response(body, { headers: { ...SSE_HEADERS, "x-agent-task-id": started.task_id } });
}

const SEQ = /^\d{1,15}$/;

/** The last event the client has: `Last-Event-ID` (the last it got), else `from` (the first it wants) - 1, else 0. */
function resumePoint(from: string | null, lastEventId: string | null): number {
  if (lastEventId !== null && lastEventId.trim() !== "") {
    if (!SEQ.test(lastEventId.trim()))
      throw new AppError("invalid_request", "Last-Event-ID must be the id of an event of this stream (an integer)", {
        param: "Last-Event-ID",
      });
    return Number(lastEventId.trim());
  }
  if (from === null) return 0;
  if (!SEQ.test(from) || Number(from) < 1)
    throw new AppError("invalid_request", "from must be an event's sequence number (an integer of at least 1)", {
      param: "from",
    });
  return Number(from) - 1;
}

/** GET /agent/tasks/{id}/stream: the task's events after the resume point, then live until its end. */
export async function followTask(input: {
  caller: TaskCaller;
  id: string;
  from: string | null;
  lastEventId: string | null;
  signal?: AbortSignal;
}): Promise<Response> {
  const after = resumePoint(input.from, input.lastEventId);
  const task = await store.findTask({ id: input.id, organizationId: input.caller.organizationId });
  if (!task) throw notFound(`Agent task '${input.id}'`);
  const control = getTaskRunner().events(task.id, input.caller.organizationId);
  if (!control && store.LIVE_TASK_STATUSES.includes(task.status as (typeof store.LIVE_TASK_STATUSES)[number]))
    throw new AppError(
      "conflict",
      `Agent task '${task.id}' is ${task.status} but its events are not kept on this node`,
      {
        detail: "task_events_unavailable",
      },
    );
  const body = sseStream((channel) => {
    if (control) return control.follow(after, (event) => send(channel, task.id, event));
    // Ended long ago (or before a restart): its events are gone, its end is stored.
    channel.send("replay_gap", { task_id: task.id, from: after + 1, first_available: null, dropped: null });
    send(channel, task.id, {
      event: task.status === "completed" ? "completed" : task.status === "stopped" ? "stopped" : "failed",
      data: {
        status: task.status,
        end_reason: task.endReason,
        result: task.result,
        ...(task.errorMessage ? { error: { code: task.endReason, message: task.errorMessage } } : {}),
      },
    });
  }, input.signal);
  return new Response(body, { headers: { ...SSE_HEADERS, "x-agent-task-id": task.id } });
}
