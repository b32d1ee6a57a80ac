"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ProfilePicker, profileBody, type ProfileChoice } from "@/components/profiles/profile-picker";
import { SubmitButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { SelectField, TextField } from "@/components/ui/field";
import { useStartTask } from "@/components/tasks/use-tasks";
import { CredentialPicker } from "@/components/credentials/credential-picker";
import { fetchJson } from "@/lib/fetch-json";
// Type-only: erased at compile time.
import type { TaskFormOptions } from "@/lib/agent/form-options";
import type { DashboardSessionList } from "@/lib/computers/session-dashboard";

const NEW_SESSION = "";

/** The organization's live sessions a task can drive. */
function useLiveSessions() {
  return useQuery({
    queryKey: ["sessions", "list", "task-form"],
    queryFn: () => fetchJson<DashboardSessionList>("/api/sessions?filter=live&page_size=100"),
  });
}

/**
 * Instruction, session (a new one, or a live one of the organization), kind, model and max steps; a started task opens
 * its page.
 */
export function NewTaskForm({ options, session }: { options: TaskFormOptions; session?: string }) {
  const router = useRouter();
  const start = useStartTask();
  const sessions = useLiveSessions();
  const [instruction, setInstruction] = useState("");
  const [computerId, setComputerId] = useState(session ?? NEW_SESSION);
  const [kind, setKind] = useState<"browser" | "desktop">("browser");
  const [model, setModel] = useState(options.models[0]?.id ?? "");
  const [maxSteps, setMaxSteps] = useState(10);
  const [startUrl, setStartUrl] = useState("");
  const [credentials, setCredentials] = useState<string[]>([]);
  const [profile, setProfile] = useState<ProfileChoice>({ name: "", saveChanges: false });
  const chosen = options.models.find((m) => m.id === model);
  const live = sessions.data?.data ?? [];
  const existing = live.find((s) => s.id === computerId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate(
      {
        instruction,
        model,
        max_steps: maxSteps,
        // An existing session has its own kind; on_missing_computer "fail": never a silent new session instead.
        ...(computerId ? { computer_id: computerId, on_missing_computer: "fail" as const } : { kind }),
        // A profile is where a new browser session starts from (docs/profiles.md).
        ...(!computerId && kind === "browser" ? profileBody(profile) : {}),
        ...(startUrl.trim() ? { start_url: startUrl.trim() } : {}),
        ...(credentials.length ? { credentials } : {}),
      },
      { onSuccess: (task) => router.push(`/tasks/${task.task_id}`) },
    );
  };

  if (options.models.length === 0)
    return <Alert tone="info">This server has no models configured, so no task can run. Configure MODELS first.</Alert>;
  const sessionOptions = [
    { value: NEW_SESSION, label: "A new session" },
    ...live.map((s) => ({ value: s.id, label: `${s.kind} ${s.id}${s.task ? ` (task ${s.task.status})` : ""}` })),
    // A session named in the address that is not (or no longer) live: shown, so the choice is visible; the start says
    // why.
    ...(computerId && !existing && !sessions.isPending
      ? [{ value: computerId, label: `${computerId} (not live)` }]
      : []),
  ];
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
          className={
            "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm " +
            "placeholder:text-slate-400 focus:border-brand-500"
          }
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <SelectField
          label="Session"
          options={sessionOptions}
          value={computerId}
          onChange={(e) => setComputerId(e.target.value)}
          hint={
            sessions.isError
              ? "The live sessions could not be read."
              : computerId
                ? "The task drives this session and leaves it running."
                : undefined
          }
        />
        {existing ? (
          <TextField label="Kind" value={existing.kind} readOnly />
        ) : (
          <SelectField
            label="Kind"
            options={["browser", "desktop"]}
            value={kind}
            disabled={Boolean(computerId)}
            onChange={(e) => setKind(e.target.value as "browser" | "desktop")}
          />
        )}
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
      <CredentialPicker value={credentials} onChange={setCredentials} />
      {!computerId && kind === "browser" && (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <ProfilePicker value={profile} onChange={setProfile} className="lg:col-span-2" />
        </div>
      )}
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
