// A task's loop, run in the server (docs/agent-tasks.md "How a task runs"):
// screenshot → model (computer tool + `done`) → the action on the session →
// screenshot → … until `done`, an answer without an action, max_steps, the
// budget (insufficient_quota), a stop, max_duration_seconds, or the session's
// end. Pause and a hand-off to a person (request_human, handoff-begin.ts) hold
// it between steps (TaskControl.gate); injected messages join the next model
// call. Every step is stored before its events go out, and the task always
// ends with a stored status, whatever stopped it (`endOf`).
import { isAppError } from "@/lib/api/errors";
import { ENDING_ACTIONS, runAction, takeScreenshot, toPixels, type ComputerRef } from "@/lib/agent/computer";
import { type TaskControl, TaskInterrupted } from "@/lib/agent/control";
import { beginHandoff, gateKeepingSession } from "@/lib/agent/handoff-begin";
import { modelTurn } from "@/lib/agent/model-turn";
import {
  FILL_CREDENTIALS_TOOL,
  fillActionOf,
  fillCredentialsTool,
  runFillCalls,
} from "@/lib/agent/tools/fill-credentials";
import { requestHumanOutput } from "@/lib/agent/tools/request-human";
import { screenshotLink, toStepObject } from "@/lib/agent/present";
import type { TaskPlan } from "@/lib/agent/schema";
import { finishTask, recordStep, type TaskStatus } from "@/lib/agent/store";
import { getLogger } from "@/lib/logger";
import type { InputItem } from "@/lib/models/model-api";

export interface LoopInput {
  taskId: string;
  plan: TaskPlan;
  computer: ComputerRef;
  control: TaskControl;
}

export interface TaskEnd {
  status: TaskStatus;
  endReason: string;
  result: string | null;
  errorMessage: string | null;
}

const now = () => performance.now();

/** What ended the loop, as the task's final status. */
function endOf(err: unknown): TaskEnd {
  if (err instanceof TaskInterrupted) {
    const status: TaskStatus = err.reason === "stopped" ? "stopped" : "failed";
    return { status, endReason: err.reason, result: null, errorMessage: err.message };
  }
  if (isAppError(err)) {
    const reason =
      err.detail === "insufficient_quota"
        ? "insufficient_quota"
        : err.code === "conflict"
          ? "session_ended"
          : (err.detail ?? err.code);
    return { status: "failed", endReason: reason, result: null, errorMessage: err.message };
  }
  getLogger().error({ err }, "agent task loop failed");
  return { status: "failed", endReason: "error", result: null, errorMessage: (err as Error)?.message ?? String(err) };
}

function firstInput(plan: TaskPlan, screenshotUrl: string): InputItem[] {
  const context = plan.context.map((turn) =>
    turn.role === "user"
      ? { type: "message" as const, role: "user" as const, content: turn.content }
      : {
          type: "message" as const,
          role: "assistant" as const,
          content: [{ type: "output_text" as const, text: turn.content }],
        },
  );
  return [
    ...context,
    {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: plan.instruction },
        { type: "input_image", image_url: screenshotUrl, detail: "auto" },
      ],
    },
  ] as InputItem[];
}

async function steps(input: LoopInput): Promise<TaskEnd> {
  const { plan, computer, control, taskId } = input;
  const environment = plan.kind;
  const principal = { organizationId: computer.caller.organizationId, apiKeyId: computer.caller.apiKeyId };
  const fillTool = await fillCredentialsTool(principal.organizationId, plan.credentials);
  let shot = await takeScreenshot(computer);
  const conversation: InputItem[] = firstInput(plan, shot.url);
  // A turn that hands the task to a person is stored as a step but not counted against max_steps.
  for (let index = 0, counted = 0; counted < plan.maxSteps; index++) {
    await gateKeepingSession(control, computer.computerId);
    const started = now();
    const handBack = control.takeHandBack();
    if (handBack) {
      // The person changed the screen: the model sees it now, with their note.
      shot = await takeScreenshot(computer);
      const text =
        `A person (${handBack.by}) had control and gave it ` +
        `back.${handBack.note ? ` Their note: ${handBack.note}` : ""}`;
      conversation.push({
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text },
          { type: "input_image", image_url: shot.url, detail: "auto" },
        ],
      } as InputItem);
      control.emit({ event: "message", data: { step: index, role: "user", text } });
    }
    const injected = control.takeMessages();
    for (const message of injected) {
      conversation.push({ type: "message", role: "user", content: message } as InputItem);
      control.emit({ event: "message", data: { step: index, role: "user", text: message } });
    }
    const turn = await modelTurn({
      principal,
      model: plan.model,
      input: conversation,
      display: computer.display,
      environment,
      temperature: plan.temperature,
      systemPrompt: plan.systemPrompt,
      signal: control.signal,
      tools: fillTool ? [fillTool] : [],
    });
    const modelMs = now() - started;
    conversation.push(...turn.output);
    if (turn.text) control.emit({ event: "message", data: { step: index, role: "assistant", text: turn.text } });

    const asked = turn.humanRequest;
    const calls = asked ? [] : turn.computerCalls;
    const fills = asked ? [] : turn.functionCalls.filter((call) => call.name === FILL_CREDENTIALS_TOOL);
    const action = calls[0]?.action ?? (fills[0] ? fillActionOf(fills[0]) : null);
    const ending = asked
      ? null
      : (turn.done ??
        (action && ENDING_ACTIONS.has(String(action.type))
          ? { result: String(action.result ?? action.text ?? action.status ?? "") }
          : null));
    let actionMs = 0;
    let error: string | null = null;
    let screenshotName: string | null = null;
    if (action && !ending) {
      const actionStarted = now();
      // Every call of the turn runs in order (a native tool's one action may be a run of them); one
      // screenshot after the last answers them all. A failed action ends the run: the model sees why.
      for (const call of calls) {
        if (error) break;
        control.emit({ event: "action", data: { step: index, type: call.action.type, action: call.action } });
        if (call.action.type === "screenshot") continue;
        const outcome = await runAction(computer, turn.pixels ? call.action : toPixels(call.action, computer.display));
        if (outcome.status === "error") error = outcome.error_message ?? "the action failed";
      }
      for (const fill of fills)
        control.emit({ event: "action", data: { step: index, type: "fill_credentials", action: fillActionOf(fill) } });
      const filled = await runFillCalls(computer, fills, error);
      error = filled.error;
      conversation.push(...filled.outputs);
      shot = await takeScreenshot(computer);
      actionMs = now() - actionStarted;
      screenshotName = shot.name;
      for (const call of calls)
        conversation.push({
          type: "computer_call_output",
          call_id: call.call_id,
          output: { type: "computer_screenshot", image_url: shot.url },
        } as InputItem);
    }
    const row = await recordStep({
      taskId,
      index,
      // A hand-off request shows in the steps as what it is.
      action: asked ? { type: "request_human", reason: asked.reason } : action,
      modelText: turn.text || null,
      screenshot: screenshotName,
      injected,
      inputTokens: turn.inputTokens,
      outputTokens: turn.outputTokens,
      costUsd: turn.costUsd,
      modelMs,
      actionMs,
      totalMs: now() - started,
      error,
    });
    if (screenshotName) {
      const url = await screenshotLink({
        computerId: computer.computerId,
        name: screenshotName,
        mode: plan.screenshotMode,
        origin: computer.origin,
      });
      control.emit({ event: "screenshot", data: { step: index, url } });
    }
    control.emit({
      event: "step",
      data: await toStepObject(
        row,
        {
          computerId: computer.computerId,
          screenshotMode: plan.screenshotMode,
          viewportWidth: computer.display.width,
          viewportHeight: computer.display.height,
        },
        computer.origin,
      ),
    });
    if (asked) {
      conversation.push(requestHumanOutput(asked.call_id) as InputItem);
      // Actions sent beside the request did not run: answered with the screen as it is.
      for (const call of turn.computerCalls)
        conversation.push({
          type: "computer_call_output",
          call_id: call.call_id,
          output: { type: "computer_screenshot", image_url: shot.url },
        } as InputItem);
      for (const call of turn.functionCalls)
        conversation.push({
          type: "function_call_output",
          call_id: call.call_id,
          output: "Not run: a person was asked to take over first.",
        } as InputItem);
      // `null` when a client's hand-off came first: the loop holds for that one all the same.
      await beginHandoff({
        taskId,
        computerId: computer.computerId,
        origin: computer.origin,
        control,
        reason: asked.reason,
        requestedBy: "the agent",
      });
      continue;
    }
    counted++;
    if (ending) return { status: "completed", endReason: "done", result: ending.result, errorMessage: null };
    // An answer with no action: the model has nothing more to do on the screen.
    if (!action) return { status: "completed", endReason: "answered", result: turn.text || null, errorMessage: null };
  }
  return { status: "completed", endReason: "max_steps", result: null, errorMessage: null };
}

/** Runs the loop to its end and stores that end; never throws. */
export async function runLoop(input: LoopInput): Promise<TaskEnd> {
  let end: TaskEnd;
  try {
    end = await steps(input);
  } catch (err) {
    // An abort surfaces as whatever the call in flight threw; the interruption says why.
    end = endOf(input.control.interrupted ?? err);
  }
  try {
    await finishTask({ id: input.taskId, ...end });
  } catch (err) {
    getLogger().error({ err, taskId: input.taskId }, "agent task end not stored");
  }
  return end;
}
