"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { SubmitButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { SelectField, TextField } from "@/components/ui/field";
import { useStartTask } from "@/components/tasks/use-tasks";
// Type-only: erased at compile time.
import type { TaskFormOptions } from "@/lib/agent/form-options";

/** Instruction, kind, model and max steps; a started task opens its page. */
export function NewTaskForm({ options }: { options: TaskFormOptions }) {
  const router = useRouter();
  const start = useStartTask();
  const [instruction, setInstruction] = useState("");
  const [kind, setKind] = useState<"browser" | "desktop">("browser");
  const [model, setModel] = useState(options.models[0]?.id ?? "");
  const [maxSteps, setMaxSteps] = useState(10);
  const [startUrl, setStartUrl] = useState("");
  const chosen = options.models.find((m) => m.id === model);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate(
      { instruction, kind, model, max_steps: maxSteps, ...(startUrl.trim() ? { start_url: startUrl.trim() } : {}) },
      { onSuccess: (task) => router.push(`/tasks/${task.task_id}`) },
    );
  };

  if (options.models.length === 0)
    return <Alert tone="info">This server has no models configured, so no task can run. Configure MODELS first.</Alert>;
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Start a task">
      <div className="space-y-1">
        <label htmlFor="task-instruction" className="block text-sm font-medium text-slate-700">
          Instruction
        </label>
        <textarea
          id="task-instruction"
          required
          rows={3}
          value={instruction}
          onChange={(e) => setInstruction(e.target.value)}
          placeholder="Open the pricing page and tell me the price of the team plan"
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:border-brand-500"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          label="Kind"
          options={["browser", "desktop"]}
          value={kind}
          onChange={(e) => setKind(e.target.value as "browser" | "desktop")}
        />
        <SelectField
          label="Model"
          options={options.models.map((m) => m.id)}
          value={model}
          onChange={(e) => setModel(e.target.value)}
        />
        <TextField
          label="Max steps"
          type="number"
          min={1}
          max={options.maxStepsLimit}
          required
          value={maxSteps}
          onChange={(e) => setMaxSteps(Number(e.target.value))}
        />
        <TextField
          label="Start URL (optional)"
          type="url"
          placeholder="https://…"
          value={startUrl}
          onChange={(e) => setStartUrl(e.target.value)}
        />
      </div>
      {chosen && !chosen.vision && (
        <p className="text-xs text-slate-500">
          {chosen.id} cannot see screenshots{chosen.placeholder ? " (the placeholder model of a fresh install)" : ""}:
          its actions will not follow the screen.
        </p>
      )}
      {start.error && <Alert>{start.error.message}</Alert>}
      <SubmitButton pending={start.isPending} label="Start task" pendingLabel="Starting…" />
    </form>
  );
}
