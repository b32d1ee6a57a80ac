"use client";

import { EnvironmentModels } from "@/components/settings/models/environment-models";
import { ModelForm } from "@/components/settings/models/model-form";
import { ModelList } from "@/components/settings/models/model-list";
import { useAddModel, useModelSettings } from "@/components/settings/models/use-model-settings";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";

export function ModelsView() {
  const settings = useModelSettings();
  const add = useAddModel();
  if (settings.error) {
    return (
      <ErrorState
        what="The models could not be loaded."
        detail={settings.error.message}
        onRetry={() => void settings.refetch()}
      />
    );
  }
  if (!settings.data) {
    return (
      <div role="status" aria-busy="true" aria-label="Loading models" className="space-y-6">
        {[320, 140, 120].map((h) => (
          <div key={h} style={{ height: h }} className="animate-pulse rounded-lg border border-slate-200 bg-slate-50" />
        ))}
      </div>
    );
  }
  const { data, environment, can_edit } = settings.data;
  return (
    <div className="space-y-6">
      {can_edit ? (
        <Card title="Add a model">
          <ModelForm
            pending={add.isPending}
            error={add.error?.message ?? null}
            onSubmit={(draft) => add.mutateAsync(draft)}
          />
        </Card>
      ) : (
        <p className="text-sm text-slate-600" data-testid="models-read-only">
          You are not an owner: you can see this organization's models, not change them. Keys are never shown.
        </p>
      )}
      <Card title="Models of this organization">
        <ModelList models={data} canEdit={can_edit} />
      </Card>
      <Card title="From the environment">
        <p className="mb-3 text-xs text-slate-500">
          Set by the server's operator (MODELS). Read-only here, and they win over a model of the same id.
        </p>
        <EnvironmentModels models={environment} />
      </Card>
    </div>
  );
}
