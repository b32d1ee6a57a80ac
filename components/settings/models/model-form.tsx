"use client";

import { useState, type FormEvent } from "react";
import type { ModelDraft, StoredModelView } from "@/components/settings/models/use-model-settings";
import { Button, SubmitButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { SelectField, TextField } from "@/components/ui/field";

const PROVIDERS = ["openai-compatible", "anthropic", "google"] as const;

const URL_HINT: Record<string, string> = {
  "openai-compatible": "The upstream's OpenAI base URL, ending in /v1 (vLLM, Ollama, a hosted provider).",
  anthropic: "Empty: Anthropic's own (https://api.anthropic.com/v1).",
  google: "Empty: Google's own Gemini API.",
};

const CAPABILITIES = [
  ["vision", "Vision (images)"],
  ["tools", "Tools"],
  ["json_schema", "JSON schema"],
  ["embeddings", "Embeddings"],
] as const;

const numberOr = (text: FormDataEntryValue | null, fallback: number) => {
  const value = String(text ?? "").trim();
  return value === "" ? fallback : Number(value);
};

/** The fields of a model as a body: editing leaves the key alone unless a new one is typed or removal is ticked. */
function draftOf(data: FormData, editing: boolean): ModelDraft {
  const key = String(data.get("api_key") ?? "").trim();
  return {
    id: String(data.get("id") ?? "").trim(),
    provider: String(data.get("provider")),
    base_url: String(data.get("base_url") ?? "").trim(),
    ...(key ? { api_key: key } : editing && data.get("remove_key") ? { api_key: null } : {}),
    upstream_model: String(data.get("upstream_model") ?? "").trim(),
    prices: { input: numberOr(data.get("price_input"), 0), output: numberOr(data.get("price_output"), 0) },
    capabilities: Object.fromEntries(CAPABILITIES.map(([name]) => [name, data.get(`cap_${name}`) === "on"])),
    aliases: String(data.get("aliases") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean),
  };
}

/** Add (no `model`) or edit a stored model. Errors from the server name the field; they stay above the buttons. */
export function ModelForm(props: {
  model?: StoredModelView;
  pending: boolean;
  error: string | null;
  onSubmit: (draft: ModelDraft) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { model } = props;
  const [provider, setProvider] = useState<string>(model?.provider ?? "openai-compatible");
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      await props.onSubmit(draftOf(new FormData(form), Boolean(model)));
      if (!model) {
        form.reset();
        setProvider("openai-compatible");
      }
    } catch {
      // Shown through `error`; what was typed stays.
    }
  };
  const caps = model?.capabilities ?? {};
  return (
    <form onSubmit={submit} className="space-y-4" aria-label={model ? `Edit ${model.model_id}` : "Add a model"}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Model id"
          name="id"
          required
          maxLength={128}
          defaultValue={model?.model_id}
          placeholder="e.g. acme.claude"
          hint="What clients send as model, in /v1, the Playground and tasks."
          autoComplete="off"
        />
        <SelectField
          label="Provider"
          name="provider"
          options={PROVIDERS}
          value={provider}
          onChange={(e) => setProvider(e.target.value)}
        />
        <TextField
          label="Base URL"
          name="base_url"
          type="url"
          required={provider === "openai-compatible"}
          defaultValue={model?.base_url ?? ""}
          placeholder={provider === "openai-compatible" ? "https://api.example.com/v1" : "default"}
          hint={URL_HINT[provider]}
        />
        <TextField
          label="API key"
          name="api_key"
          type="password"
          autoComplete="new-password"
          placeholder={model?.api_key_hint ? `saved (${model.api_key_hint})` : "sk-…"}
          hint={
            model?.api_key_hint
              ? "Leave empty to keep the saved key. Keys are encrypted and never shown again."
              : "Encrypted at rest; never shown again, only its last 4 characters."
          }
        />
        <TextField
          label="Upstream model id"
          name="upstream_model"
          maxLength={256}
          defaultValue={model?.upstream_model ?? ""}
          placeholder="empty: the model id"
        />
        <TextField
          label="Aliases"
          name="aliases"
          defaultValue={model?.aliases.join(", ") ?? ""}
          placeholder="e.g. tzafon.northstar-cua-fast"
          hint="Further ids it answers to, separated by commas."
        />
        <TextField
          label="Input price (USD per million tokens)"
          name="price_input"
          type="number"
          min={0}
          step="any"
          inputMode="decimal"
          defaultValue={model?.prices.input ?? ""}
          placeholder="0"
        />
        <TextField
          label="Output price (USD per million tokens)"
          name="price_output"
          type="number"
          min={0}
          step="any"
          inputMode="decimal"
          defaultValue={model?.prices.output ?? ""}
          placeholder="0"
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Capabilities</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {CAPABILITIES.map(([name, label]) => (
            <label key={name} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                name={`cap_${name}`}
                defaultChecked={caps[name] !== false}
                className="h-4 w-4 rounded border-slate-300"
              />
              {label}
            </label>
          ))}
        </div>
        <p className="text-xs text-slate-500">
          A request that uses an unticked capability is refused before it reaches the provider.
        </p>
      </fieldset>
      {model?.api_key_hint && (
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="remove_key" className="h-4 w-4 rounded border-slate-300" />
          Remove the saved key
        </label>
      )}
      {props.error && <Alert>{props.error}</Alert>}
      <div className="flex flex-wrap justify-end gap-2">
        {props.onCancel && (
          <Button variant="secondary" onClick={props.onCancel} disabled={props.pending}>
            Cancel
          </Button>
        )}
        <SubmitButton
          pending={props.pending}
          label={model ? "Save changes" : "Add model"}
          pendingLabel={model ? "Saving…" : "Adding…"}
        />
      </div>
    </form>
  );
}
