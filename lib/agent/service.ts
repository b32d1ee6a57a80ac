// The agent task API (docs/agent-tasks.md): start (answered at once, or as an
// SSE stream), status, list, pause, resume, inject a message, stop. One
// function per route, each scoped to the caller's organization; the API
// routes, the dashboard and the MCP server all call these. A start settles
// everything that can be refused (body, model, limits, the session) before
// answering, so a refused start leaves no task and no session behind.
import { AppError, notFound } from "@/lib/api/errors";
import {
  closeComputer,
  dropRecording,
  openComputer,
  recordTask,
  reuseComputer,
  openPage,
  type ComputerRef,
} from "@/lib/agent/computer";
import type { TaskEvent } from "@/lib/agent/control";
import { toTaskObject, toTaskSummary } from "@/lib/agent/present";
import { getTaskRunner } from "@/lib/agent/runner";
import type { TaskControl, TaskPlan, TaskStart } from "@/lib/agent/schema";
import * as store from "@/lib/agent/store";
import { assertRoomForTask, insertTaskWithinLimit } from "@/lib/agent/task-admission";
import type { SessionCaller } from "@/lib/computers/service";
import { getEnv } from "@/lib/env";
import { getModel, listModels } from "@/lib/models/registry";
import { handoffTask, resumeTask } from "@/lib/agent/handoff";
import { fillCredentialsTool } from "@/lib/agent/tools/fill-credentials";

export interface TaskCaller extends SessionCaller {
  /** Who acts, in words (a dashboard member's name), for a task's hand-off history. */
  actor?: string;
}

/** The model a task uses when its start names none (AGENT_DEFAULT_MODEL, else <prefix>.cua-fast, else the first). */
export function defaultModel(organizationId?: string): string {
  const env = getEnv();
  if (env.AGENT_DEFAULT_MODEL) return env.AGENT_DEFAULT_MODEL;
  const models = listModels(organizationId);
  return (models.find((m) => m.id === `${env.MODEL_PREFIX}.cua-fast`) ?? models[0])!.id;
}

function planOf(start: TaskStart, organizationId: string): TaskPlan {
  const model = start.model ?? defaultModel(organizationId);
  getModel(model, organizationId); // 404 model_not_found (param "model") before anything is made
  return {
    instruction: start.instruction,
    kind: start.kind ?? (start.startUrl ? "browser" : "desktop"),
    model,
    maxSteps: start.maxSteps ?? Math.min(50, getEnv().AGENT_MAX_STEPS_LIMIT),
    maxDurationSeconds: start.maxDurationSeconds ?? null,
    temperature: start.temperature ?? null,
    screenshotMode: start.screenshotMode ?? "url",
    viewport: { width: start.viewport?.width ?? 1280, height: start.viewport?.height ?? 720 },
    persistent: start.persistent ?? false,
    record: start.record ?? null,
    environmentId: start.environmentId ?? null,
    profile: start.profile ?? null,
    computerId: start.computerId ?? null,
    onMissingComputer: start.onMissingComputer ?? "restore",
    terminateOnCompletion: start.terminateOnCompletion ?? true,
    startUrl: start.startUrl ?? null,
    systemPrompt: start.systemPrompt ?? null,
    context: start.context ?? [],
    metadata: start.metadata ?? {},
    idempotencyKey: start.idempotencyKey ?? null,
    credentials: [...new Set(start.credentials ?? [])],
  };
}

/** The task's computer: a live one named by computer_id, a restore of a saved one, or a new one. */
async function computerFor(
  caller: TaskCaller,
  plan: TaskPlan,
  origin: string,
): Promise<{ ref: ComputerRef; owns: boolean }> {
  if (plan.computerId) {
    const live = await reuseComputer({ caller, origin, computerId: plan.computerId });
    if (live) return { ref: live, owns: false };
    if (plan.onMissingComputer === "fail") {
      throw new AppError("not_found", `computer_id '${plan.computerId}' is not a live session of your organization`, {
        param: "computer_id",
      });
    }
    try {
      return {
        ref: await openComputer({
          caller,
          origin,
          kind: plan.kind,
          viewport: plan.viewport,
          persistent: plan.persistent,
          environmentId: plan.computerId,
        }),
        owns: true,
      };
    } catch (err) {
      if (plan.onMissingComputer !== "create_new") throw err;
    }
  }
  return {
    ref: await openComputer({
      caller,
      origin,
      kind: plan.kind,
      viewport: plan.viewport,
      persistent: plan.persistent,
      environmentId: plan.environmentId,
      profile: plan.profile,
    }),
    owns: true,
  };
}

export interface StartedTask {
  task_id: string;
  status: string;
  computer_id: string | null;
  idempotency_key?: string;
  reused: boolean;
}

/**
 * POST /agent/tasks (its body checked at the edge: `parseTaskStart`), the dashboard's start and MCP's
 * run_agent_task: the task is running (or was already started with this idempotency key) when this answers.
 */
export async function startTask(input: {
  caller: TaskCaller;
  start: TaskStart;
  origin: string;
  onEvent?: (event: TaskEvent) => void;
}): Promise<StartedTask> {
  const plan = planOf(input.start, input.caller.organizationId);
  const { organizationId } = input.caller;
  const keyEcho = plan.idempotencyKey ? { idempotency_key: plan.idempotencyKey } : {};
  if (plan.idempotencyKey) {
    const earlier = await store.findTaskByIdempotencyKey({ organizationId, idempotencyKey: plan.idempotencyKey });
    if (earlier)
      return { task_id: earlier.id, status: earlier.status, computer_id: earlier.computerId, ...keyEcho, reused: true };
  }
  // Unknown credential names are the start's 400, before a session is made.
  await fillCredentialsTool(organizationId, plan.credentials);
  await assertRoomForTask(organizationId);
  const { ref, owns } = await computerFor(input.caller, plan, input.origin);
  const taskId = store.newTaskId();
  let recording: Awaited<ReturnType<typeof recordTask>> = { replayId: null, started: false };
  try {
    recording = await recordTask(ref, plan.record, taskId);
    if (plan.startUrl) {
      const opened = await openPage(ref, plan.startUrl);
      if (opened.status === "error")
        throw new AppError("invalid_request", `start_url could not be opened: ${opened.error_message}`, {
          param: "start_url",
        });
    }
    await insertTaskWithinLimit({
      id: taskId,
      organizationId,
      apiKeyId: input.caller.apiKeyId,
      hostId: getEnv().HOST_ID,
      instruction: plan.instruction,
      kind: ref.kind,
      model: plan.model,
      maxSteps: plan.maxSteps,
      temperature: plan.temperature,
      screenshotMode: plan.screenshotMode,
      viewportWidth: ref.display.width,
      viewportHeight: ref.display.height,
      persistent: plan.persistent,
      environmentId: plan.environmentId,
      computerId: ref.computerId,
      ownsComputer: owns,
      terminateOnCompletion: plan.terminateOnCompletion,
      options: JSON.stringify({
        metadata: plan.metadata,
        system_prompt: plan.systemPrompt,
        context: plan.context,
        start_url: plan.startUrl,
        ...(plan.credentials.length ? { credentials: plan.credentials } : {}),
        replay_id: recording.replayId,
      }),
      idempotencyKey: plan.idempotencyKey,
    });
  } catch (err) {
    if (owns) await closeComputer(ref).catch(() => {});
    else if (recording.started) await dropRecording(ref, recording.replayId!);
    throw err;
  }
  getTaskRunner().start({
    taskId,
    plan: { ...plan, kind: ref.kind, viewport: ref.display },
    computer: ref,
    ownsComputer: owns,
    onEvent: input.onEvent,
  });
  return { task_id: taskId, status: "running", computer_id: ref.computerId, ...keyEcho, reused: false };
}

async function ownedTask(caller: TaskCaller, id: string) {
  const task = await store.findTask({ id, organizationId: caller.organizationId });
  if (!task) throw notFound(`Agent task '${id}'`);
  return task;
}

/** GET /agent/tasks/{id}: the SDK's {status, task_id, exit_code?} and the whole task beside them. */
export async function getTask(input: { caller: TaskCaller; id: string; origin: string }) {
  return toTaskObject(await ownedTask(input.caller, input.id), input.origin);
}

export async function listTasks(input: { caller: TaskCaller; limit?: number }) {
  const rows = await store.listTasks({
    organizationId: input.caller.organizationId,
    limit: Math.min(Math.max(input.limit ?? 50, 1), 100),
  });
  return { object: "list", data: rows.map(toTaskSummary) };
}

/** The loop of a live task of the caller's; a task that already ended is a 409 naming its status. */
async function runningTask(caller: TaskCaller, id: string) {
  const task = await ownedTask(caller, id);
  const running = getTaskRunner().get(id, caller.organizationId);
  if (!running || !store.LIVE_TASK_STATUSES.includes(task.status as (typeof store.LIVE_TASK_STATUSES)[number])) {
    throw new AppError(
      "conflict",
      `Agent task '${id}' is ${task.status}; only a running or paused task can be changed`,
      { detail: "task_not_running" },
    );
  }
  return running;
}

export async function pauseTask(input: { caller: TaskCaller; id: string }) {
  const running = await runningTask(input.caller, input.id);
  if (running.control.awaitingHuman !== null)
    throw new AppError("conflict", `Agent task '${input.id}' waits for a person; resume it or stop it`, {
      detail: "task_awaiting_human",
    });
  running.control.pause();
  await store.setTaskStatus(input.id, "paused");
  return { status: "paused", task_id: input.id };
}

// POST /agent/tasks/{id}/resume and /handoff: lib/agent/handoff.ts (one state machine with pause).
export { handoffTask, resumeTask };

/** POST /agent/tasks/{id}/messages: joins the next model call (a paused task gets it once resumed). */
export async function injectMessage(input: { caller: TaskCaller; id: string; message: string }) {
  const running = await runningTask(input.caller, input.id);
  const queued = running.control.inject(input.message);
  return { status: "queued", task_id: input.id, queued_messages: queued };
}

/** POST /agent/tasks/{id}/stop: ends the loop now (status stopped) and, when the task made its session, the session. */
export async function stopTask(input: { caller: TaskCaller; id: string }) {
  const running = await runningTask(input.caller, input.id);
  running.control.interrupt("stopped", "Stopped on request");
  const end = await running.finished;
  return { status: end.status, task_id: input.id };
}

/** The dashboard's controls (one route for them all, `parseTaskControl`): pause, resume, stop, messages, handoff. */
export function controlTask(input: { caller: TaskCaller; id: string; control: TaskControl; origin?: string }) {
  const { caller, id, control } = input;
  switch (control.action) {
    case "pause":
      return pauseTask({ caller, id });
    case "resume":
      return resumeTask({ caller, id, note: control.note });
    case "stop":
      return stopTask({ caller, id });
    case "messages":
      return injectMessage({ caller, id, message: control.message });
    case "handoff":
      return handoffTask({ caller, id, reason: control.reason, origin: input.origin ?? "" });
  }
}
