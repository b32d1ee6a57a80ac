// How many agent tasks an organization may run at once (AGENT_ORG_MAX_RUNNING_TASKS, docs/agent-tasks.md):
// checked early (before a computer is opened for nothing) and decided when the task's row is written,
// by one count and insert under the organization's lock (`withinCountedLimit`), so concurrent starts
// cannot all pass the early check and all run.
import { AppError } from "@/lib/api/errors";
import { countLiveTasks, insertTask, type NewTask } from "@/lib/agent/store";
import { getEnv } from "@/lib/env";
import { withinCountedLimit } from "@/lib/limits/counted-admission";

function tooManyTasks(limit: number): AppError {
  return new AppError(
    "rate_limited",
    `Your organization already runs ${limit} agent tasks (AGENT_ORG_MAX_RUNNING_TASKS); stop one or wait for ` +
      `one to end`,
    { detail: "too_many_tasks" },
  );
}

/** The early refusal: a start over the limit opens no computer. */
export async function assertRoomForTask(organizationId: string): Promise<void> {
  const limit = getEnv().AGENT_ORG_MAX_RUNNING_TASKS;
  if ((await countLiveTasks(organizationId)) >= limit) throw tooManyTasks(limit);
}

/** Writes the running task's row if the organization is still below its limit; throws `rate_limited` otherwise. */
export function insertTaskWithinLimit(task: NewTask) {
  const limit = getEnv().AGENT_ORG_MAX_RUNNING_TASKS;
  return withinCountedLimit({
    scope: `agent-tasks:${task.organizationId}`,
    limit,
    count: (tx) => countLiveTasks(task.organizationId, tx),
    write: (tx) => insertTask(task, tx),
    refusal: () => tooManyTasks(limit),
  });
}
