"use client";

import { memo, useId } from "react";
import { ToggleGroup } from "@/components/ui/toggle-group";
import type { PlaygroundModel } from "@/lib/models/playground";
import {
  MAX_TOKENS_RANGE,
  PRESETS,
  presetOf,
  TEMPERATURE_RANGE,
  type SamplingSettings,
} from "@/components/playground/presets";

const CONTROL =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 " +
  "focus:outline-none focus:ring-2 focus:ring-brand-500/40";

export interface PlaygroundSettings extends SamplingSettings {
  model: string;
  system: string;
}

const CAPABILITY_LABELS = {
  vision: "images",
  tools: "tools",
  json_schema: "JSON schema",
  embeddings: "embeddings",
} as const;

function ModelFacts({ model }: { model: PlaygroundModel }) {
  const caps = Object.entries(CAPABILITY_LABELS).filter(
    ([key]) => model.capabilities[key as keyof typeof CAPABILITY_LABELS],
  );
  return (
    <div className="space-y-1 text-xs text-slate-600" data-testid="playground-model-facts">
      <p className="flex flex-wrap gap-1">
        <span className="rounded bg-slate-100 px-1.5 py-0.5">{model.backend === "local" ? "local" : "upstream"}</span>
        {model.placeholder && (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-800">placeholder</span>
        )}
        {caps.map(([key, label]) => (
          <span key={key} className="rounded bg-brand-50 px-1.5 py-0.5 text-brand-700">
            {label}
          </span>
        ))}
      </p>
      <p>
        ${model.prices.input} in / ${model.prices.output} out per million tokens
      </p>
      {model.notice && <p className="text-amber-800">{model.notice}</p>}
    </div>
  );
}

/** Memoized: the chat renders every frame while an answer streams, and the settings did not change. */
export const SettingsPanel = memo(function SettingsPanel(props: {
  models: PlaygroundModel[];
  value: PlaygroundSettings;
  onChange: (value: PlaygroundSettings) => void;
}) {
  const id = useId();
  const { value, onChange } = props;
  const model = props.models.find((m) => m.id === value.model);
  const preset = presetOf(value);
  return (
    <div className="space-y-4">
      <div className="space-y-1">
        <label htmlFor={`${id}-model`} className="block text-sm font-medium text-slate-700">
          Model
        </label>
        <select
          id={`${id}-model`}
          className={CONTROL}
          value={value.model}
          onChange={(e) => onChange({ ...value, model: e.target.value })}
        >
          {props.models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.placeholder ? `${m.id} (placeholder)` : m.id}
            </option>
          ))}
        </select>
        {model && <ModelFacts model={model} />}
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-system`} className="block text-sm font-medium text-slate-700">
          System prompt
        </label>
        <textarea
          id={`${id}-system`}
          rows={3}
          className={CONTROL}
          placeholder="You are a helpful assistant."
          value={value.system}
          onChange={(e) => onChange({ ...value, system: e.target.value })}
        />
      </div>
      <div className="space-y-2">
        <p className="text-sm font-medium text-slate-700">Sampling</p>
        <ToggleGroup
          label="Sampling preset"
          look="segmented"
          options={[
            ...PRESETS.map((p) => ({ value: p.value, label: p.label })),
            { value: "custom" as const, label: "Custom" },
          ]}
          value={preset}
          onChange={(name) => {
            const chosen = PRESETS.find((p) => p.value === name);
            if (chosen) onChange({ ...value, temperature: chosen.temperature, maxTokens: chosen.maxTokens });
          }}
        />
        <p className="text-xs text-slate-500">
          {PRESETS.find((p) => p.value === preset)?.use ?? "Your own temperature and max tokens."}
        </p>
        <div className="grid grid-cols-2 gap-3">
          <div className="space-y-1">
            <label htmlFor={`${id}-temperature`} className="block text-xs font-medium text-slate-700">
              Temperature
            </label>
            <input
              id={`${id}-temperature`}
              type="number"
              className={CONTROL}
              {...TEMPERATURE_RANGE}
              value={value.temperature}
              onChange={(e) =>
                onChange({
                  ...value,
                  temperature: clamp(e.target.valueAsNumber, TEMPERATURE_RANGE.min, TEMPERATURE_RANGE.max),
                })
              }
            />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-max-tokens`} className="block text-xs font-medium text-slate-700">
              Max tokens
            </label>
            <input
              id={`${id}-max-tokens`}
              type="number"
              className={CONTROL}
              {...MAX_TOKENS_RANGE}
              step={1}
              value={value.maxTokens}
              onChange={(e) =>
                onChange({
                  ...value,
                  maxTokens: Math.round(clamp(e.target.valueAsNumber, MAX_TOKENS_RANGE.min, MAX_TOKENS_RANGE.max)),
                })
              }
            />
          </div>
        </div>
      </div>
    </div>
  );
});

/** An emptied or out-of-range number input keeps the nearest valid value. */
function clamp(n: number, min: number, max: number): number {
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : min;
}
