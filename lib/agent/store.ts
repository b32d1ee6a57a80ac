// Agent task rows: every query scoped by organization where a caller names an
// id, so a foreign task is simply "not found". The loop writes as it goes
// (a step row per turn, the task's totals with it), so reads never wait on it.
import { type Db, getDb } from "@/lib/db";
import { randomHex } from "@/lib/random-id";

export const LIVE_TASK_STATUSES = ["queued", "running", "paused", "awaiting_human"] as const;
export type TaskStatus = (typeof LIVE_TASK_STATUSES)[number] | "completed" | "failed" | "stopped";

export const newTaskId = () => `task_${randomHex(12)}`;

export type TaskRow = NonNullable<Awaited<ReturnType<typeof findTask>>>;
export type StepRow = TaskRow["steps"][number];

export function findTask(where: { id: string; organizationId: string }) {
  return getDb().agentTask.findFirst({ where, include: { steps: { orderBy: { index: "asc" } } } });
}

/** Where a task runs and whether its loop is live (cluster forwarding; docs/cluster.md). */
export async function findTaskHost(id: string) {
  const row = await getDb().agentTask.findUnique({
    where: { id },
    select: { organizationId: true, hostId: true, status: true },
  });
  return row && { ...row, live: (LIVE_TASK_STATUSES as readonly string[]).includes(row.status) };
}

export function findTaskByIdempotencyKey(where: { organizationId: string; idempotencyKey: string }) {
  return getDb().agentTask.findFirst({ where, include: { steps: { orderBy: { index: "asc" } } } });
}

export function countLiveTasks(organizationId: string, db: Pick<Db, "agentTask"> = getDb()): Promise<number> {
  return db.agentTask.count({ where: { organizationId, status: { in: [...LIVE_TASK_STATUSES] } } });
}

export function listTasks(input: { organizationId: string; limit: number }) {
  return getDb().agentTask.findMany({
    where: { organizationId: input.organizationId },
    orderBy: { createdAt: "desc" },
    take: input.limit,
  });
}

export type TaskListRow = Awaited<ReturnType<typeof listTasks>>[number];

export interface NewTask {
  id: string;
  organizationId: string;
  apiKeyId: string | null;
  hostId: string;
  instruction: string;
  kind: string;
  model: string;
  maxSteps: number;
  temperature: number | null;
  screenshotMode: string;
  viewportWidth: number;
  viewportHeight: number;
  persistent: boolean;
  environmentId: string | null;
  computerId: string;
  ownsComputer: boolean;
  terminateOnCompletion: boolean;
  options: string;
  idempotencyKey: string | null;
}

export function insertTask(task: NewTask, db: Pick<Db, "agentTask"> = getDb()) {
  return db.agentTask.create({ data: { ...task, status: "running", startedAt: new Date() } });
}

export function setTaskStatus(id: string, status: TaskStatus) {
  return getDb().agentTask.updateMany({ where: { id, status: { in: [...LIVE_TASK_STATUSES] } }, data: { status } });
}

export interface NewStep {
  taskId: string;
  index: number;
  action: unknown;
  modelText: string | null;
  screenshot: string | null;
  injected: string[];
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  modelMs: number;
  actionMs: number;
  totalMs: number;
  error: string | null;
}

/** One step and the task's running totals, together. */
export async function recordStep(step: NewStep) {
  const db = getDb();
  const [row] = await db.$transaction([
    db.agentTaskStep.create({
      data: {
        id: `step_${randomHex(12)}`,
        taskId: step.taskId,
        index: step.index,
        action: step.action === null || step.action === undefined ? null : JSON.stringify(step.action),
        modelText: step.modelText,
        screenshot: step.screenshot,
        injected: step.injected.length ? JSON.stringify(step.injected) : null,
        inputTokens: step.inputTokens,
        outputTokens: step.outputTokens,
        costUsd: step.costUsd,
        modelMs: step.modelMs,
        actionMs: step.actionMs,
        totalMs: step.totalMs,
        error: step.error,
      },
    }),
    db.agentTask.update({
      where: { id: step.taskId },
      data: {
        stepCount: step.index + 1,
        inputTokens: { increment: step.inputTokens },
        outputTokens: { increment: step.outputTokens },
        costUsd: { increment: step.costUsd },
      },
    }),
  ]);
  return row;
}

export function finishTask(input: {
  id: string;
  status: TaskStatus;
  endReason: string;
  result?: string | null;
  errorMessage?: string | null;
}) {
  return getDb().agentTask.update({
    where: { id: input.id },
    data: {
      status: input.status,
      endReason: input.endReason,
      result: input.result ?? null,
      errorMessage: input.errorMessage ?? null,
      endedAt: new Date(),
    },
  });
}

/**
 * A host's tasks that were live when its process died (their loops died with it): at its own restart
 * (`server_restart`), or when a survivor reaps a node whose lease lapsed (`node_lost`, docs/agent-tasks.md).
 */
export async function failLeftoverTasks(input: {
  hostId: string;
  message: string;
  endReason?: "server_restart" | "node_lost";
}) {
  const db = getDb();
  const rows = await db.agentTask.findMany({
    where: { hostId: input.hostId, status: { in: [...LIVE_TASK_STATUSES] } },
    select: { id: true, computerId: true, ownsComputer: true },
  });
  if (rows.length) {
    await db.agentTask.updateMany({
      where: { id: { in: rows.map((r) => r.id) }, status: { in: [...LIVE_TASK_STATUSES] } },
      data: {
        status: "failed",
        endReason: input.endReason ?? "server_restart",
        errorMessage: input.message,
        endedAt: new Date(),
      },
    });
  }
  return rows;
}
