// A task's hand-offs to a person, kept in the task row's `options` JSON (beside
// its metadata) so that no schema change is needed: the open one says why the
// task waits, the closed ones who gave control back and with what note
// (docs/agent-tasks.md "Hand-off to a person"). Only the task's own loop host
// writes them (every request for a task is served by its node), one at a time.
import { getDb } from "@/lib/db";
import { LIVE_TASK_STATUSES, type TaskStatus } from "@/lib/agent/store";

export interface HandoffRecord {
  id: string;
  reason: string;
  /** Who asked: "the agent", "API key key_…", a member's name, … */
  requested_by: string;
  requested_at: string;
  resumed_at: string | null;
  resumed_by: string | null;
  note: string | null;
}

/** The hand-offs in a task row's options, oldest first (none in a task that never had one). */
export function handoffsOf(options: string): HandoffRecord[] {
  try {
    const parsed = JSON.parse(options) as { handoffs?: unknown };
    return Array.isArray(parsed.handoffs) ? (parsed.handoffs as HandoffRecord[]) : [];
  } catch {
    return [];
  }
}

/** The hand-off the task waits on: the last one, while it is open. */
export function openHandoffOf(options: string): HandoffRecord | null {
  const last = handoffsOf(options).at(-1);
  return last && last.resumed_at === null ? last : null;
}

async function rewrite(
  taskId: string,
  change: (list: HandoffRecord[]) => HandoffRecord[],
  status: TaskStatus,
): Promise<void> {
  const db = getDb();
  const row = await db.agentTask.findUnique({ where: { id: taskId }, select: { options: true } });
  if (!row) return;
  const options = JSON.parse(row.options) as Record<string, unknown>;
  options.handoffs = change(handoffsOf(row.options));
  // Only a live task changes status: an end stored meanwhile (stop, session end) stays.
  await db.$transaction([
    db.agentTask.update({ where: { id: taskId }, data: { options: JSON.stringify(options) } }),
    db.agentTask.updateMany({ where: { id: taskId, status: { in: [...LIVE_TASK_STATUSES] } }, data: { status } }),
  ]);
}

/** Opens a hand-off: the record, and the task `awaiting_human`. */
export function recordHandoff(taskId: string, record: HandoffRecord): Promise<void> {
  return rewrite(taskId, (list) => [...list, record], "awaiting_human");
}

/** Closes the open hand-off (who gave control back, with what note), and the task `running` again. */
export function recordHandBack(taskId: string, by: string, note: string | null): Promise<void> {
  const at = new Date().toISOString();
  return rewrite(
    taskId,
    (list) => list.map((h) => (h.resumed_at === null ? { ...h, resumed_at: at, resumed_by: by, note } : h)),
    "running",
  );
}

/** The organization's tasks waiting for a person, newest first (the dashboard's badge). */
export function listWaitingTasks(organizationId: string) {
  return getDb().agentTask.findMany({
    where: { organizationId, status: "awaiting_human" },
    orderBy: { createdAt: "desc" },
    select: { id: true, instruction: true, options: true },
    take: 50,
  });
}

/** A task by id alone, for the take-over link (its token stands for the organization). */
export function findTaskForLink(id: string) {
  return getDb().agentTask.findUnique({
    where: { id },
    select: { id: true, organizationId: true, status: true, options: true, computerId: true, instruction: true },
  });
}
