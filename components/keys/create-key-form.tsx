"use client";

import { useState } from "react";
import { useCreateKey, type CreatedKey } from "@/components/keys/use-keys";
import { Button, SubmitButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/field";
import { formSubmit } from "@/components/ui/form-submit";

export function CreateKeyForm() {
  const create = useCreateKey();
  const [created, setCreated] = useState<CreatedKey | null>(null);

  const submit = formSubmit(async (data) => {
    setCreated(await create.mutateAsync(String(data.get("name"))));
  });

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextField label="Key name" name="name" required maxLength={100} placeholder="e.g. production agent" />
        </div>
        <SubmitButton pending={create.isPending} label="Create key" pendingLabel="Creating…" />
      </form>
      {create.error && <Alert>{create.error.message}</Alert>}
      {created && (
        <div className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50 p-3" data-testid="new-key">
          <p className="text-sm font-medium text-emerald-900">
            Copy your new key “{created.name}” now. It will not be shown again.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              className="block flex-1 overflow-x-auto rounded bg-white px-2 py-1.5 font-mono text-xs"
              data-testid="new-key-value"
            >
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
