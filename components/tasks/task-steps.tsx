"use client";

import { markOf, StepShot } from "@/components/tasks/step-shot";
import { formatCost } from "@/components/tasks/task-status";
import type { TaskObject } from "@/components/tasks/use-tasks";

type Step = TaskObject["steps"][number];

const ENDING = new Set(["terminate", "done", "answer"]);

/** An action as a person reads it, in screen pixels: "click at (640, 360)", "type "hello"". */
export function describeAction(action: Record<string, unknown> | null): string {
  if (!action) return "answer";
  const { type, x, y, ...rest } = action;
  const at = typeof x === "number" && typeof y === "number" ? ` at (${x}, ${y})` : "";
  const detail = Object.entries(rest)
    .filter(([k, v]) => !(k === "button" && v === "left") && k !== "path")
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(", ");
  const path = Array.isArray(rest.path) ? ` along ${rest.path.length} points` : "";
  return `${String(type)}${at}${path}${detail ? ` (${detail})` : ""}`;
}

/** The text a step ends with: an ending action's result, else the task's result on its last step. */
function answerOf(step: Step, last: boolean, result: string | null): string | null {
  const action = step.action as Record<string, unknown> | null;
  if (action && ENDING.has(String(action.type))) {
    const text = action.result ?? action.text ?? action.status;
    if (typeof text === "string" && text) return text;
  }
  return last && (!action || ENDING.has(String(action.type))) ? result : null;
}

/**
 * The steps, newest last: screenshot with the action's mark, the action in pixels, the model's text, time, tokens and
 * cost.
 */
export function TaskSteps(props: {
  steps: Step[];
  live: boolean;
  screen: { width: number; height: number };
  result: string | null;
  queued?: string[];
}) {
  const { steps, live } = props;
  if (steps.length === 0 && !props.queued?.length) {
    return (
      <p role="status" className="text-sm text-slate-600" data-testid="steps-empty">
        {live ? "Waiting for the first step…" : "This task ended before its first step."}
      </p>
    );
  }
  return (
    <ol className="space-y-3" aria-label="Steps" aria-live="polite">
      {steps.map((step, i) => {
        const answer = answerOf(step, i === steps.length - 1 && !live, props.result);
        return (
          <li
            key={step.index}
            data-testid="task-step"
            className="flex flex-col gap-3 rounded-md border border-slate-200 p-2 sm:flex-row"
          >
            <StepShot
              url={step.screenshot_url}
              screen={props.screen}
              mark={markOf(step.screen_action)}
              label={`Screenshot after step ${step.index + 1}`}
            />
            <div className="min-w-0 flex-1 space-y-1 text-sm">
              <p className="font-medium text-slate-900">
                <span className="text-slate-500">{step.index + 1}.</span>{" "}
                <span className="break-words" data-testid="step-action">
                  {describeAction(step.screen_action)}
                </span>
              </p>
              {step.model_text && step.model_text !== answer && (
                <p className="break-words text-slate-700">{step.model_text}</p>
              )}
              {answer && (
                <p className="break-words rounded bg-emerald-50 px-2 py-1 text-emerald-900" data-testid="step-answer">
                  {answer}
                </p>
              )}
              {step.injected_messages.map((m, j) => (
                <p key={j} className="break-words text-xs text-brand-700">
                  You: {m}
                </p>
              ))}
              {step.error && <p className="break-words text-xs text-red-700">{step.error}</p>}
              <p className="text-xs text-slate-500 tabular-nums" data-testid="step-facts">
                model {Math.round(step.timings_ms.model)} ms · action {Math.round(step.timings_ms.action)} ms ·{" "}
                {step.usage.input_tokens} in / {step.usage.output_tokens} out tokens · {formatCost(step.cost_usd)}
              </p>
            </div>
          </li>
        );
      })}
      {props.queued?.map((m, j) => (
        <li
          key={`queued-${j}`}
          data-testid="queued-message"
          className="rounded-md border border-dashed border-brand-200 bg-brand-50 px-3 py-2 text-sm text-brand-700"
        >
          Queued: “{m}” joins the next model call{live ? "" : " (the task ended before it)"}.
        </li>
      ))}
    </ol>
  );
}
