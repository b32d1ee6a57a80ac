// The MCP tool `run_agent_task`: starts an agent task (lib/agent/service.ts,
// the loop of POST /agent/tasks) and answers when it ends, with its result.
// While it runs, each step is a `notifications/progress` (when the client sent
// a progressToken); a client cancelling the call stops the task. Its fields are the
// task start schema's own (`taskStartSchema`), so the tool advertises the limits a start applies.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { TaskEvent } from "@/lib/agent/control";
import { taskStartSchema } from "@/lib/agent/schema";
import { getTask, startTask, stopTask } from "@/lib/agent/service";
import { jsonResult, toolResult, type McpCaller } from "@/lib/mcp/result";

const FINAL = new Set(["completed", "failed", "stopped"]);

/** run_agent_task's input: fields of POST /agent/tasks (AGENT_MAX_STEPS_LIMIT is read when the server is made). */
export function taskToolFields() {
  const start = taskStartSchema().shape;
  return {
    instruction: start.instruction.describe("What the agent should do"),
    kind: start.kind.describe("The computer it runs on (default: browser with start_url, else desktop)"),
    model: start.model.describe("A model id of GET /v1/models (default: the server's agent model)"),
    max_steps: start.max_steps.describe("Most loop steps (default 50)"),
    start_url: start.start_url.describe("A page to open before the first step"),
    session_id: start.computer_id.describe("Run on this live session instead of a new one"),
    profile: start.profile.describe("A named browser profile the task's new session starts from"),
    credentials: start.credentials.describe(
      "Vault credentials (names) the agent may fill into login forms on their domains; it never sees the values",
    ),
  };
}

export function registerTaskTool(server: McpServer, caller: McpCaller): void {
  server.registerTool(
    "run_agent_task",
    {
      description:
        "Run an agent task: Cabin's loop looks at the screen, asks the model for an action, acts, and repeats " +
        "until the task is done. " +
        "Answers with the task's status, result and steps; reports each step as progress, and a hand-off to a person " +
        "(status awaiting_human) with the live_view_url where the person takes over.",
      inputSchema: taskToolFields(),
    },
    (args, extra) =>
      toolResult(async () => {
        const progressToken = extra._meta?.progressToken;
        let lastProgress = 0;
        let finished!: () => void;
        const done = new Promise<void>((resolve) => (finished = resolve));
        const onEvent = (event: TaskEvent) => {
          if (FINAL.has(event.event)) return finished();
          if (event.event === "needs_human" && progressToken !== undefined) return void waiting(event.data);
          if (event.event !== "step" || progressToken === undefined) return;
          const step = event.data as { index: number; action: { type?: string } | null; model_text: string | null };
          void extra
            .sendNotification({
              method: "notifications/progress",
              params: {
                progressToken,
                progress: (lastProgress = step.index + 1),
                total: args.max_steps ?? 50,
                message: `step ${step.index + 1}: ${step.action?.type ?? step.model_text ?? "answer"}`,
              },
            })
            .catch(() => {});
        };
        // A hand-off (docs/agent-tasks.md "Hand-off to a person"): the call goes on waiting; the progress
        // message says awaiting_human, why, and the link where a person takes over.
        const waiting = (data: Record<string, unknown>) =>
          extra
            .sendNotification({
              method: "notifications/progress",
              params: {
                progressToken: progressToken!,
                // Progress must grow: half a step past the last one.
                progress: (lastProgress += 0.5),
                message: `awaiting_human: ${String(data.reason)}; a person takes over at ${String(data.live_view_url)}`,
              },
            })
            .catch(() => {});
        const started = await startTask({
          caller: caller.principal,
          origin: caller.origin,
          onEvent,
          start: {
            instruction: args.instruction,
            kind: args.kind,
            model: args.model,
            maxSteps: args.max_steps,
            startUrl: args.start_url,
            // A session named here must be live: the tool never restores or replaces it.
            ...(args.session_id ? { computerId: args.session_id, onMissingComputer: "fail" as const } : {}),
            profile: args.profile,
            credentials: args.credentials,
          },
        });
        const cancel = () => void stopTask({ caller: caller.principal, id: started.task_id }).catch(() => {});
        extra.signal.addEventListener("abort", cancel, { once: true });
        await done;
        extra.signal.removeEventListener("abort", cancel);
        const task = await getTask({ caller: caller.principal, id: started.task_id, origin: caller.origin });
        const summary = {
          task_id: task.task_id,
          status: task.status,
          end_reason: task.end_reason,
          result: task.result,
          step_count: task.step_count,
          cost_usd: task.cost_usd,
          computer_id: task.computer_id,
          handoffs: task.handoffs,
          replay_id: task.replay_id,
          steps: task.steps.map((s) => ({
            index: s.index,
            action: s.action,
            model_text: s.model_text,
            error: s.error,
          })),
        };
        // A task that failed or was stopped is a tool error, with the same summary to read.
        return { ...jsonResult(summary), isError: task.status !== "completed" };
      }),
  );
}
