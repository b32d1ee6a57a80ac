"use client";

import type { TaskObject } from "@/components/tasks/use-tasks";

type Step = TaskObject["steps"][number];

function describeAction(action: unknown): string {
  if (!action || typeof action !== "object") return "answer";
  const { type, ...rest } = action as Record<string, unknown>;
  const detail = Object.entries(rest)
    .filter(([k]) => k !== "button" || rest.button !== "left")
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(", ");
  return detail ? `${String(type)} (${detail})` : String(type);
}

/** The steps as they are stored, newest last: thumbnail, action, model text, injected messages, timings. */
export function TaskSteps({ steps, live }: { steps: Step[]; live: boolean }) {
  if (steps.length === 0) {
    return (
      <p role="status" className="text-sm text-slate-600" data-testid="steps-empty">
        {live ? "Waiting for the first step…" : "This task ended before its first step."}
      </p>
    );
  }
  return (
    <ol className="space-y-3" aria-label="Steps" aria-live="polite">
      {steps.map((step) => (
        <li key={step.index} data-testid="task-step" className="flex gap-3 rounded-md border border-slate-200 p-2">
          {step.screenshot_url ? (
            <a
              href={step.screenshot_url}
              target="_blank"
              rel="noreferrer"
              className="shrink-0"
              aria-label={`Screenshot after step ${step.index + 1}`}
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- a capability URL of this server, not an optimizable asset */}
              <img
                src={step.screenshot_url}
                alt=""
                width={128}
                height={72}
                loading="lazy"
                className="h-[72px] w-32 rounded border border-slate-200 object-cover"
              />
            </a>
          ) : (
            <div
              aria-hidden
              className="flex h-[72px] w-32 shrink-0 items-center justify-center rounded border border-dashed border-slate-200 text-xs text-slate-400"
            >
              no screenshot
            </div>
          )}
          <div className="min-w-0 flex-1 space-y-1 text-sm">
            <p className="font-medium text-slate-900">
              <span className="text-slate-500">{step.index + 1}.</span>{" "}
              <span className="break-words">{describeAction(step.action)}</span>
            </p>
            {step.model_text && <p className="break-words text-slate-700">{step.model_text}</p>}
            {step.injected_messages.map((m, i) => (
              <p key={i} className="break-words text-xs text-brand-700">
                You: {m}
              </p>
            ))}
            {step.error && <p className="break-words text-xs text-red-700">{step.error}</p>}
            <p className="text-xs text-slate-500">
              model {Math.round(step.timings_ms.model)} ms · action {Math.round(step.timings_ms.action)} ms ·{" "}
              {step.usage.total_tokens} tokens
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}
