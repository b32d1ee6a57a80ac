// Hand-off to a person through the task API (docs/agent-tasks.md "Hand-off to a
// person"): POST /agent/tasks/{id}/handoff {reason} holds a live task for a
// person, POST /agent/tasks/{id}/resume {note?} gives control back (from a pause
// or a hand-off; anything else is a 409), and the take-over link's page and its
// Done button (GET /takeover/{id}?token=…, POST /agent/tasks/{id}/handoff/done)
// do the same for someone without an API key or a login. The dashboard and MCP
// call these too.
import { AppError, notFound } from "@/lib/api/errors";
import { beginHandoff, handBack } from "@/lib/agent/handoff-begin";
import { verifyHandoffToken, tokenExpiry } from "@/lib/agent/handoff-link";
import { findTaskForLink, listWaitingTasks, openHandoffOf } from "@/lib/agent/handoff-store";
import { getTaskRunner } from "@/lib/agent/runner";
import type { TaskCaller } from "@/lib/agent/service";
import * as store from "@/lib/agent/store";
import { liveViewSocketUrl } from "@/lib/computers/endpoints";
import { findComputerById } from "@/lib/computers/session-rows";

/** Who acts, in words, for the hand-off history: a member's name, else the API key. */
export function actorOf(caller: TaskCaller): string {
  return caller.actor ?? (caller.apiKeyId ? `API key ${caller.apiKeyId}` : "the dashboard");
}

/** The task's loop when the task is live here; a task that ended is a 409 naming its status. */
async function liveTask(caller: TaskCaller, id: string, doing: string) {
  const task = await store.findTask({ id, organizationId: caller.organizationId });
  if (!task) throw notFound(`Agent task '${id}'`);
  const running = getTaskRunner().get(id, caller.organizationId);
  if (!running || !(store.LIVE_TASK_STATUSES as readonly string[]).includes(task.status))
    throw new AppError("conflict", `Agent task '${id}' is ${task.status}; ${doing}`, { detail: "task_not_running" });
  return { task, control: running.control };
}

/**
 * POST /agent/tasks/{id}/handoff (its body checked at the edge: `parseHandoff`): the task waits for a person
 * (its loop holds after the step in flight).
 */
export async function handoffTask(input: { caller: TaskCaller; id: string; reason: string; origin: string }) {
  const { reason } = input;
  const { task, control } = await liveTask(input.caller, input.id, "only a running or paused task can be handed off");
  const begun =
    control.awaitingHuman || !task.computerId
      ? null
      : await beginHandoff({
          taskId: task.id,
          computerId: task.computerId,
          origin: input.origin,
          control,
          reason,
          requestedBy: actorOf(input.caller),
        });
  if (!begun)
    throw new AppError("conflict", `Agent task '${task.id}' already waits for a person`, {
      detail: "task_awaiting_human",
    });
  return { status: "awaiting_human", task_id: task.id, handoff: { ...begun.handoff, ...begun.links } };
}

/**
 * POST /agent/tasks/{id}/resume {note?}: a task waiting for a person goes on with the note (the model
 * reads it with a new screenshot); a paused one goes on, the note joining its next model call.
 */
export async function resumeTask(input: { caller: TaskCaller; id: string; note?: string }) {
  const { note } = input;
  const { task, control } = await liveTask(input.caller, input.id, "only a paused or waiting task can be resumed");
  if (control.awaitingHuman !== null) {
    await handBack({ taskId: task.id, control, by: actorOf(input.caller), note: note || null });
  } else if (control.paused) {
    if (note) control.inject(note);
    await store.setTaskStatus(task.id, "running");
    control.resume();
  } else {
    throw new AppError(
      "conflict",
      `Agent task '${task.id}' is ${task.status}; only a paused task or one waiting for a person can be resumed`,
      { detail: "task_not_paused" },
    );
  }
  return { status: "running", task_id: task.id };
}

/** The open hand-off a take-over token is for; anything else (forged, expired, over) is a 401. */
async function handoffOfToken(taskId: string, token: string | null) {
  const task = await findTaskForLink(taskId);
  const open = task && task.status === "awaiting_human" ? openHandoffOf(task.options) : null;
  if (!task || !open || !token || !verifyHandoffToken(task.id, open.id, token))
    throw new AppError(
      "unauthorized",
      "This take-over link is not valid: it expired, its hand-off is over, or it was never issued. Read the " +
        "task again for a fresh link.",
      { detail: "invalid_handoff_token" },
    );
  return { task, open };
}

/**
 * The take-over page's content: the task, why it waits, and its live view (a WebSocket URL as long-lived as the link).
 */
export async function openTakeover(input: { taskId: string; token: string | null; origin: string }) {
  const { task, open } = await handoffOfToken(input.taskId, input.token);
  const session = task.computerId ? await findComputerById(task.computerId) : null;
  if (!session || session.status === "terminated")
    throw new AppError("conflict", `The task's session has ended`, { detail: "session_ended" });
  const linkEnds = tokenExpiry(input.token!)!;
  return {
    taskId: task.id,
    instruction: task.instruction,
    reason: open.reason,
    requestedBy: open.requested_by,
    kind: session.kind,
    viewport: { width: session.displayWidth, height: session.displayHeight },
    wsUrl: liveViewSocketUrl(session.id, input.origin, Math.min(linkEnds.getTime(), session.expiresAt.getTime())),
    expiresAt: linkEnds.toISOString(),
  };
}

/** POST /agent/tasks/{id}/handoff/done?token=…: the take-over page's Done, with the person's note (`parseResume`). */
export async function finishTakeover(input: { taskId: string; token: string | null; note?: string }) {
  const { note } = input;
  const { task } = await handoffOfToken(input.taskId, input.token);
  const running = getTaskRunner().get(task.id, task.organizationId);
  if (!running || running.control.awaitingHuman === null)
    throw new AppError("conflict", `Agent task '${task.id}' is not waiting for a person here`, {
      detail: "task_not_running",
    });
  await handBack({ taskId: task.id, control: running.control, by: "the take-over link", note: note || null });
  return { status: "running", task_id: task.id };
}

/** The organization's tasks waiting for a person, with their reasons (the dashboard's badge and list). */
export async function waitingTasks(organizationId: string) {
  const rows = await listWaitingTasks(organizationId);
  return {
    count: rows.length,
    data: rows.map((row) => ({
      task_id: row.id,
      instruction: row.instruction,
      reason: openHandoffOf(row.options)?.reason ?? null,
    })),
  };
}
