"use client";

import { useState, type FormEvent } from "react";
import { useCreateKey, type CreatedKey } from "@/components/keys/use-keys";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/field";

export function CreateKeyForm() {
  const create = useCreateKey();
  const [created, setCreated] = useState<CreatedKey | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name"));
    const key = await create.mutateAsync(name);
    setCreated(key);
    form.reset();
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextField label="Key name" name="name" required maxLength={100} placeholder="e.g. production agent" />
        </div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {create.error && <Alert>{create.error.message}</Alert>}
      {created && (
        <div className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50 p-3" data-testid="new-key">
          <p className="text-sm font-medium text-emerald-900">
            Copy your new key “{created.name}” now. It will not be shown again.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code className="block flex-1 overflow-x-auto rounded bg-white px-2 py-1.5 font-mono text-xs" data-testid="new-key-value">
              {created.key}
            </code>
            <CopyButton value={created.key} />
            <Button variant="ghost" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
