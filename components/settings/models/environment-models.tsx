import type { ModelSettings } from "@/components/settings/models/use-model-settings";

/** MODELS entries: read-only here, they win for the ids they name (docs/models.md). No URL or key is shown. */
export function EnvironmentModels({ models }: { models: ModelSettings["environment"] }) {
  return (
    <ul className="divide-y divide-slate-200" data-testid="environment-models">
      {models.map((m) => (
        <li key={m.model_id} className="flex flex-wrap items-center justify-between gap-2 py-2 first:pt-0 last:pb-0">
          <div className="min-w-0">
            <p className="break-all font-mono text-sm text-slate-900">{m.model_id}</p>
            {m.aliases.length > 0 && (
              <p className="break-all text-xs text-slate-500">also answers {m.aliases.join(", ")}</p>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
            <span>{m.placeholder ? "local placeholder" : m.backend}</span>
            <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700">from the environment</span>
          </div>
        </li>
      ))}
    </ul>
  );
}
