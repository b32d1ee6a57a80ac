"use client";

import { useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { ToggleGroup } from "@/components/ui/toggle-group";
import { SNIPPETS, type CodeCall, type SnippetLanguage } from "@/components/playground/code-snippets";

const LANGUAGES = Object.entries(SNIPPETS).map(([value, s]) => ({ value: value as SnippetLanguage, label: s.label }));

/** The playground's current call, to run outside the dashboard with an API key. */
export function ViewCode({ call }: { call: CodeCall }) {
  const [language, setLanguage] = useState<SnippetLanguage>("openai");
  const code = SNIPPETS[language].build(call);
  return (
    <div className="space-y-3" data-testid="playground-code">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ToggleGroup label="Code language" options={LANGUAGES} value={language} onChange={setLanguage} />
        <CopyButton value={code} />
      </div>
      <pre className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">{code}</pre>
      <p className="text-xs text-slate-500">
        Set <code className="font-mono">CABIN_API_KEY</code> to a key from the Keys page.
      </p>
    </div>
  );
}
