"use client";

import { useState } from "react";
import { ModelForm } from "@/components/settings/models/model-form";
import {
  useDeleteModel,
  useEditModel,
  useTestModel,
  type ModelTestResult,
  type StoredModelView,
} from "@/components/settings/models/use-model-settings";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";

const usd = (value: number) => `$${value}`;

const CAPABILITY_LABELS: Record<string, string> = {
  vision: "vision",
  tools: "tools",
  json_schema: "JSON schema",
  embeddings: "embeddings",
};

function Chip({ children, tone = "slate" }: { children: React.ReactNode; tone?: "slate" | "amber" | "brand" }) {
  const tones = {
    slate: "bg-slate-100 text-slate-700",
    amber: "bg-amber-100 text-amber-800",
    brand: "bg-brand-50 text-brand-700",
  };
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${tones[tone]}`}>{children}</span>;
}

function TestOutcome({ result, error }: { result?: ModelTestResult; error: string | null }) {
  if (error) {
    return (
      <p role="alert" className="text-sm text-red-700">
        The test could not run: {error}
      </p>
    );
  }
  if (!result) return null;
  return result.ok ? (
    <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
      Answered in {result.latency_ms} ms: <q className="font-mono">{result.answer}</q>
    </p>
  ) : (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      Failed after {result.latency_ms} ms ({result.status}): {result.error}
    </p>
  );
}

function ModelRow({ model, canEdit }: { model: StoredModelView; canEdit: boolean }) {
  const test = useTestModel();
  const edit = useEditModel();
  const remove = useDeleteModel();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const capabilities = Object.entries(CAPABILITY_LABELS).filter(([name]) => model.capabilities[name] === true);
  return (
    <li className="space-y-3 py-4 first:pt-0 last:pb-0" data-testid="stored-model">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="break-all font-mono text-sm font-semibold text-slate-900">{model.model_id}</h3>
            <Chip tone="brand">{model.provider}</Chip>
            {model.shadowed_by_environment && <Chip tone="amber">shadowed by the environment</Chip>}
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-slate-600">
            <dt>Upstream</dt>
            <dd className="break-all font-mono">{model.upstream_model ?? model.model_id}</dd>
            <dt>Base URL</dt>
            <dd className="break-all font-mono">{model.base_url ?? "the provider's default"}</dd>
            <dt>Key</dt>
            <dd className="font-mono">{model.api_key_hint ?? "none"}</dd>
            <dt>Prices</dt>
            <dd>
              {usd(model.prices.input)} in · {usd(model.prices.output)} out per million tokens
            </dd>
            {model.aliases.length > 0 && (
              <>
                <dt>Aliases</dt>
                <dd className="break-all font-mono">{model.aliases.join(", ")}</dd>
              </>
            )}
          </dl>
          <div className="flex flex-wrap gap-1">
            {capabilities.map(([name, label]) => (
              <Chip key={name}>{label}</Chip>
            ))}
          </div>
        </div>
        {canEdit && (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => test.mutate(model.id)} disabled={test.isPending}>
              {test.isPending ? "Testing…" : "Test"}
            </Button>
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          </div>
        )}
      </div>
      {model.problem && (
        <p role="alert" className="text-sm text-red-700">
          Not served: {model.problem}
        </p>
      )}
      <TestOutcome result={test.data} error={test.error?.message ?? null} />
      <Dialog open={editing} onClose={() => setEditing(false)} title={`Edit ${model.model_id}`} testId="edit-model">
        <ModelForm
          model={model}
          pending={edit.isPending}
          error={edit.error?.message ?? null}
          onCancel={() => setEditing(false)}
          onSubmit={(draft) => edit.mutateAsync({ id: model.id, draft }).then(() => setEditing(false))}
        />
      </Dialog>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${model.model_id}?`}
        message={
          "Requests naming it (and its aliases) get model_not_found at once, on every node. Its saved key is " +
          "deleted with it."
        }
        confirmLabel="Delete model"
        pending={remove.isPending}
        error={remove.error?.message ?? null}
        onConfirm={() => remove.mutate(model.id, { onSuccess: () => setConfirming(false) })}
        onCancel={() => setConfirming(false)}
      />
    </li>
  );
}

export function ModelList({ models, canEdit }: { models: StoredModelView[]; canEdit: boolean }) {
  if (models.length === 0) {
    return (
      <div
        className="rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600"
        data-testid="models-empty"
      >
        <p className="font-medium text-slate-800">No models set up in the dashboard yet.</p>
        <p className="mt-1">
          {canEdit
            ? "Add one above: this organization's API keys, the Playground and tasks can use it at once."
            : "Owners add them; this organization's API keys, the Playground and tasks can then use them."}
        </p>
      </div>
    );
  }
  return (
    <ul className="divide-y divide-slate-200">
      {models.map((m) => (
        <ModelRow key={m.id} model={m} canEdit={canEdit} />
      ))}
    </ul>
  );
}
