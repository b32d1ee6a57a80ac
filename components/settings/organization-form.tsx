"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/card";
import { SubmitButton } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { useRenameOrganization, type OrganizationSettings } from "@/components/settings/use-organization-settings";

/** Name and slug: a form for owners and admins, plain facts for members. */
export function OrganizationForm({ settings }: { settings: OrganizationSettings }) {
  const { organization: org } = settings;
  const rename = useRenameOrganization();
  const [name, setName] = useState(org.name);
  const [slug, setSlug] = useState(org.slug);
  const changed = name.trim() !== org.name || slug.trim() !== org.slug;

  if (!settings.can_edit) {
    return (
      <dl className="grid gap-3 text-sm sm:grid-cols-2" data-testid="organization-readonly">
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Name</dt>
          <dd className="mt-1 font-medium text-slate-900">{org.name}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Slug</dt>
          <dd className="mt-1 font-mono text-slate-900">{org.slug}</dd>
        </div>
        <p className="text-xs text-slate-500 sm:col-span-2">Only owners and admins can rename the organization.</p>
      </dl>
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const body: { name?: string; slug?: string } = {};
    if (name.trim() !== org.name) body.name = name.trim();
    if (slug.trim() !== org.slug) body.slug = slug.trim();
    rename.mutate(body);
  }

  return (
    <form onSubmit={submit} className="space-y-4" data-testid="organization-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Organization name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={80}
        />
        <TextField
          label="Slug"
          hint="Lowercase letters, digits and hyphens; unique on this server."
          value={slug}
          onChange={(e) => setSlug(e.target.value.toLowerCase())}
          required
          minLength={3}
          maxLength={48}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
        />
      </div>
      {rename.error && <Alert>{rename.error.message}</Alert>}
      {rename.isSuccess && !changed && <Alert tone="success">Saved.</Alert>}
      <SubmitButton
        pending={rename.isPending || !changed}
        label="Save changes"
        pendingLabel={rename.isPending ? "Saving…" : "Save changes"}
      />
    </form>
  );
}
