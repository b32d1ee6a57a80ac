"use client";

import { useId, useState, type InputHTMLAttributes } from "react";
import { ProfilePicker, profileBody, type ProfileChoice } from "@/components/profiles/profile-picker";
import { useCreateSession, useSessionCreateOptions } from "@/components/sessions/use-sessions";
import { SubmitButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { SelectField, TextField } from "@/components/ui/field";
import { formSubmit } from "@/components/ui/form-submit";

function CheckboxField({ label, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  return (
    <div className="col-span-2 flex items-center gap-2 self-end py-2 sm:col-span-1">
      <input id={id} type="checkbox" className="size-4 rounded border-slate-300 accent-brand-600" {...props} />
      <label htmlFor={id} className="text-sm text-slate-700">
        {label}
      </label>
    </div>
  );
}

/** The create fields as POST /computers takes them; an empty field is left out so the server's default applies. */
function createBody(data: FormData): Record<string, unknown> {
  const text = (name: string) => String(data.get(name) ?? "").trim();
  const number = (name: string) => (text(name) === "" ? undefined : Number(text(name)));
  const kind = text("kind");
  const display = { width: number("width"), height: number("height"), scale: number("scale") };
  return {
    kind,
    max_lifetime_seconds: number("max_lifetime_seconds"),
    inactivity_timeout_seconds: number("inactivity_timeout_seconds"),
    auto_kill: data.get("auto_kill") === "on",
    persistent: data.get("persistent") === "on",
    context_id: text("context_id") || undefined,
    environment_id: text("environment_id") || undefined,
    ...(Object.values(display).some((v) => v !== undefined) ? { display } : {}),
    ...(kind === "browser" && data.get("use_advanced_proxy") === "on" ? { use_advanced_proxy: true } : {}),
    ...(kind === "browser"
      ? profileBody({ name: text("profile_name"), saveChanges: data.get("profile_save_changes") === "on" })
      : {}),
  };
}

const NO_PROFILE: ProfileChoice = { name: "", saveChanges: false };

/** `onCreated`: the dialog that holds the form closes on it (the new row shows at the top of the list). */
export function NewSessionForm({ onCreated }: { onCreated?: (id: string) => void } = {}) {
  const options = useSessionCreateOptions();
  const create = useCreateSession();
  const [kind, setKind] = useState("browser");
  const [created, setCreated] = useState<string | null>(null);
  const [profile, setProfile] = useState<ProfileChoice>(NO_PROFILE);

  const submit = formSubmit(async (data) => {
    setCreated(null);
    const { id } = await create.mutateAsync(createBody(data));
    setCreated(id);
    setKind("browser");
    setProfile(NO_PROFILE);
    onCreated?.(id);
  });

  if (options.isPending) return <p className="text-sm text-slate-500">Loading the options of this server…</p>;
  if (options.error) return <Alert>The create options could not be loaded: {options.error.message}</Alert>;
  const { kinds, environments, plan_max_lifetime_seconds: planMax, proxy_configured: proxyConfigured } = options.data;
  const environmentsOfKind = environments.filter((e) => e.kind === kind);

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="New session">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <SelectField label="Kind" name="kind" options={kinds} value={kind} onChange={(e) => setKind(e.target.value)} />
        <TextField
          label="Lifetime (seconds)"
          name="max_lifetime_seconds"
          type="number"
          min={1}
          max={planMax}
          placeholder={String(planMax)}
          hint={`Plan maximum ${planMax} s`}
        />
        <TextField
          label="Idle timeout (seconds)"
          name="inactivity_timeout_seconds"
          type="number"
          min={1}
          max={86400}
          placeholder="120"
        />
        <CheckboxField label="Auto-kill when idle" name="auto_kill" defaultChecked />
        <TextField label="Display width" name="width" type="number" min={320} max={3840} placeholder="1280" />
        <TextField label="Display height" name="height" type="number" min={240} max={2160} placeholder="720" />
        <TextField label="Display scale" name="scale" type="number" min={0.5} max={4} step={0.25} placeholder="1" />
        <TextField label="Context id" name="context_id" maxLength={256} placeholder="optional label" />
        <div className="col-span-2 space-y-1 sm:col-span-1">
          <label htmlFor="environment-picker" className="block text-sm font-medium text-slate-700">
            Start from environment
          </label>
          <select
            id="environment-picker"
            name="environment_id"
            className={
              "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-500 " +
              "focus:ring-2 focus:ring-brand-500/40 focus:outline-none"
            }
          >
            <option value="">A fresh {kind}</option>
            {environmentsOfKind.map((e) => (
              <option key={e.id} value={e.id}>
                {e.context_id ? `${e.context_id} (${e.id})` : e.id}
              </option>
            ))}
          </select>
        </div>
        <CheckboxField label="Persistent (save its state)" name="persistent" />
        {kind === "browser" && <ProfilePicker value={profile} onChange={setProfile} />}
        {proxyConfigured && kind === "browser" && (
          <CheckboxField label="Use the advanced proxy" name="use_advanced_proxy" />
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={create.isPending} label="Create session" pendingLabel="Starting…" />
        {created && (
          <p role="status" className="text-sm text-emerald-800">
            Started <span className="font-mono">{created}</span>.
          </p>
        )}
      </div>
      {create.error && <Alert>{create.error.message}</Alert>}
    </form>
  );
}
