// POST /agent/tasks/stream: starts a task like POST /agent/tasks (a refused
// start is the same JSON 4xx) and answers its events as Server-Sent Events
// (docs/agent-tasks.md "Streaming"), ending after completed, failed or stopped.
// Events are named after what the public examples' streaming server emits
// (`started`, `action`, `screenshot`, `completed`) plus this loop's own
// (`step`, `message`, `paused`, `resumed`, `failed`, `stopped`).
import { SSE_HEADERS, sseStream, type SseChannel } from "@/lib/api/sse";
import type { TaskEvent } from "@/lib/agent/control";
import { startTask, type TaskCaller } from "@/lib/agent/service";

const FINAL = new Set(["completed", "failed", "stopped"]);

export async function streamTask(input: {
  caller: TaskCaller;
  body: unknown;
  origin: string;
  signal?: AbortSignal;
}): Promise<Response> {
  // Events that come before the response stream opens wait here, in order.
  const early: TaskEvent[] = [];
  let channel: SseChannel | null = null;
  let gone = false;
  const deliver = (event: TaskEvent) => {
    if (gone) return; // the client left; the task runs on (GET /agent/tasks/{id} reads it)
    if (!channel) return void early.push(event);
    channel.send(event.event, { ...event.data, ...("task_id" in event.data ? {} : { task_id: started.task_id }) });
    if (FINAL.has(event.event)) channel.close();
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
