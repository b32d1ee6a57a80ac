"use client";

import { useCredentials } from "@/components/credentials/use-credentials";

/** The task form's credentials: the organization's names as checkboxes; nothing when there are none. */
export function CredentialPicker({ value, onChange }: { value: string[]; onChange: (names: string[]) => void }) {
  const credentials = useCredentials();
  const names = credentials.data?.data.map((c) => c.name) ?? [];
  if (credentials.isError)
    return <p className="text-xs text-slate-500">The credentials could not be read; the task starts without them.</p>;
  if (names.length === 0) return null;
  const toggle = (name: string, on: boolean) => onChange(on ? [...value, name] : value.filter((n) => n !== name));
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-700">Credentials the task may fill (optional)</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {names.map((name) => (
          <label key={name} className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 rounded border-slate-300"
              checked={value.includes(name)}
              onChange={(e) => toggle(name, e.target.checked)}
            />
            <span className="font-mono text-xs">{name}</span>
          </label>
        ))}
      </div>
      <p className="text-xs text-slate-500">The model sees their names and domains, never their values.</p>
    </fieldset>
  );
}
