"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/card";
import { SubmitButton } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { authClient } from "@/lib/auth/client";

const slugFor = (name: string) =>
  `${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "team"
  }-${Math.random().toString(16).slice(2, 8)}`;

/**
 * Where a person lands when they belong to no organization (after leaving or deleting their last one), or a member
 * starts another team.
 */
export function CreateTeamForm({ member = false }: { member?: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name")).trim();
    setPending(true);
    setError(null);
    const result = await authClient.organization.create({ name, slug: slugFor(name) });
    if (result.error) {
      setPending(false);
      setError(result.error.message ?? "The team could not be created");
      return;
    }
    await authClient.organization.setActive({ organizationId: result.data!.id });
    window.location.assign("/sessions");
  }

  // The page's heading is an h1, as on Log in and Sign up (a Card title is an h2, and the page had none).
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-lg font-semibold">Create a team</h1>
      <form onSubmit={submit} className="space-y-4" data-testid="create-team">
        {member ? (
          <p className="text-sm text-slate-600" data-testid="create-team-member">
            You already belong to a team. A new team is separate: its own sessions, keys, usage and members; you can
            switch between teams from the menu.{" "}
            <a href="/sessions" className="text-brand-700 underline underline-offset-2">
              Back to your team
            </a>
          </p>
        ) : (
          <p className="text-sm text-slate-600">
            You are not in any organization. Create one to run sessions and call models, or open an invitation link a
            teammate sent you.
          </p>
        )}
        <TextField label="Team name" name="name" required maxLength={80} autoComplete="organization" />
        {error && <Alert>{error}</Alert>}
        <SubmitButton pending={pending} label="Create team" pendingLabel="Creating…" />
        <p className="text-xs text-slate-500">
          Or{" "}
          <a href="/login" className="text-brand-700 underline underline-offset-2">
            log in as someone else
          </a>
          .
        </p>
      </form>
    </div>
  );
}
