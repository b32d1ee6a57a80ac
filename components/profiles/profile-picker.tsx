"use client";

import { useId } from "react";
import { useProfiles } from "@/components/profiles/use-profiles";

export interface ProfileChoice {
  name: string;
  saveChanges: boolean;
}

/** The `profile` object of a session or task start, or nothing when no name was given. */
export function profileBody(choice: ProfileChoice): { profile?: { name: string; save_changes?: true } } {
  const name = choice.name.trim();
  if (!name) return {};
  return { profile: { name, ...(choice.saveChanges ? { save_changes: true as const } : {}) } };
}

/**
 * Picks a browser profile by name (the organization's names are offered; a new name
 * is created by a session that saves changes) and whether the session saves into it.
 * Its inputs are named `profile_name` and `profile_save_changes` for forms read as FormData.
 */
export function ProfilePicker({
  value,
  onChange,
  className = "",
}: {
  value: ProfileChoice;
  onChange: (next: ProfileChoice) => void;
  className?: string;
}) {
  const profiles = useProfiles();
  const id = useId();
  const names = profiles.data?.map((p) => p.name) ?? [];
  const hint = profiles.isError
    ? "The profiles could not be loaded; you can still type a name."
    : names.length === 0 && !profiles.isPending
      ? "No profiles yet: type a name and tick Save changes to create one."
      : "Empty: a fresh browser. A new name is created when Save changes is ticked.";
  return (
    <fieldset className={`col-span-2 grid gap-3 sm:grid-cols-2 ${className}`} data-testid="profile-picker">
      <legend className="sr-only">Browser profile</legend>
      <div className="space-y-1">
        <label htmlFor={`${id}-name`} className="block text-sm font-medium text-slate-700">
          Browser profile
        </label>
        <input
          id={`${id}-name`}
          name="profile_name"
          list={`${id}-names`}
          maxLength={64}
          autoComplete="off"
          placeholder="none"
          value={value.name}
          onChange={(e) => onChange({ ...value, name: e.target.value })}
          aria-describedby={`${id}-hint`}
          className={
            "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm " +
            "placeholder:text-slate-400 focus:border-brand-500"
          }
        />
        <datalist id={`${id}-names`}>
          {names.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      </div>
      <div className="flex items-center gap-2 self-start pt-7">
        <input
          id={`${id}-save`}
          type="checkbox"
          name="profile_save_changes"
          className="size-4 rounded border-slate-300 accent-brand-600 disabled:opacity-50"
          checked={value.saveChanges}
          disabled={!value.name.trim()}
          onChange={(e) => onChange({ ...value, saveChanges: e.target.checked })}
        />
        <label htmlFor={`${id}-save`} className="text-sm text-slate-700">
          Save changes to the profile
        </label>
      </div>
    </fieldset>
  );
}
