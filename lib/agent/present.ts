// Task and step objects as answered (docs/agent-tasks.md "The task object"):
// the SDK's TaskRetrieveStatusResponse fields (`task_id`, `status`,
// `exit_code`) and, where the SDK is silent, the task's computer, steps,
// usage, cost, timestamps and result. Screenshot links are built per read
// (capability URLs expire), or inlined as data URLs in screenshot_mode base64.
import { screenshotUrl } from "@/lib/computers/screenshots/screenshot-links";
import { readScreenshot } from "@/lib/computers/screenshots/screenshots";
import type { StepRow, TaskListRow, TaskRow } from "@/lib/agent/store";
import { toPixels } from "@/lib/agent/computer";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** 0 when the task ended as asked (done or an answer, or its steps ran out), 1 when it failed or was stopped; absent while it runs. */
export function exitCodeOf(status: string): number | undefined {
  if (status === "completed") return 0;
  if (status === "failed" || status === "stopped") return 1;
  return undefined;
}

/** A link to a stored screenshot for `origin`, or its bytes as a data URL; null once it expired. */
export async function screenshotLink(input: {
  computerId: string | null;
  name: string | null;
  mode: string;
  origin: string;
}): Promise<string | null> {
  if (!input.computerId || !input.name) return null;
  if (input.mode === "base64") {
    const file = await readScreenshot(input.computerId, input.name);
    return file ? `data:${file.mime};base64,${file.data.toString("base64")}` : null;
  }
  return screenshotUrl(input.origin, { computerId: input.computerId, name: input.name });
}

export async function toStepObject(
  step: StepRow,
  task: Pick<TaskRow, "computerId" | "screenshotMode" | "viewportWidth" | "viewportHeight">,
  origin: string,
) {
  const action = parse(step.action) as Record<string, unknown> | null;
  return {
    index: step.index,
    action,
    /** The same action in the screen's pixels (the model answers in 0–1000: docs/computer-use.md), as it ran. */
    screen_action: action ? toPixels(action, { width: task.viewportWidth, height: task.viewportHeight }) : null,
    model_text: step.modelText,
    screenshot_url: await screenshotLink({
      computerId: task.computerId,
      name: step.screenshot,
      mode: task.screenshotMode,
      origin,
    }),
    injected_messages: (parse(step.injected) as string[] | null) ?? [],
    usage: {
      input_tokens: step.inputTokens,
      output_tokens: step.outputTokens,
      total_tokens: step.inputTokens + step.outputTokens,
    },
    cost_usd: step.costUsd,
    timings_ms: { model: round(step.modelMs), action: round(step.actionMs), total: round(step.totalMs) },
    error: step.error,
    created_at: step.createdAt.toISOString(),
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function replayIdOf(options: string): string | null {
  const parsed = JSON.parse(options) as { replay_id?: string | null };
  return parsed.replay_id ?? null;
}

/** The fields shared by the list item and the full object. */
export function toTaskSummary(task: TaskListRow) {
  const exitCode = exitCodeOf(task.status);
  return {
    task_id: task.id,
    object: "agent.task",
    status: task.status,
    ...(exitCode === undefined ? {} : { exit_code: exitCode }),
    instruction: task.instruction,
    kind: task.kind,
    model: task.model,
    computer_id: task.computerId,
    /** The task's recording (docs/replays.md), null when it was not recorded. */
    replay_id: replayIdOf(task.options),
    /** Who started it: an API key (its id) or a member in the dashboard. */
    started_by: task.apiKeyId
      ? { type: "api_key" as const, api_key_id: task.apiKeyId }
      : { type: "dashboard" as const },
    max_steps: task.maxSteps,
    step_count: task.stepCount,
    usage: {
      input_tokens: task.inputTokens,
      output_tokens: task.outputTokens,
      total_tokens: task.inputTokens + task.outputTokens,
    },
    cost_usd: task.costUsd,
    result: task.result,
    end_reason: task.endReason,
    error: task.errorMessage ? { code: task.endReason ?? "error", message: task.errorMessage } : null,
    created_at: task.createdAt.toISOString(),
    started_at: iso(task.startedAt),
    ended_at: iso(task.endedAt),
  };
}

export async function toTaskObject(task: TaskRow, origin: string) {
  const options = JSON.parse(task.options) as { metadata?: Record<string, string> };
  return {
    ...toTaskSummary(task),
    screenshot_mode: task.screenshotMode,
    viewport: { width: task.viewportWidth, height: task.viewportHeight },
    temperature: task.temperature,
    persistent: task.persistent,
    metadata: options.metadata ?? {},
    steps: await Promise.all(task.steps.map((step) => toStepObject(step, task, origin))),
  };
}

export type TaskObject = Awaited<ReturnType<typeof toTaskObject>>;
export type TaskSummary = ReturnType<typeof toTaskSummary>;
