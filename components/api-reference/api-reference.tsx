"use client";

import { useMemo, useState } from "react";
import { OperationDetails } from "@/components/api-reference/operation-details";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ToggleGroup } from "@/components/ui/toggle-group";
import type { ReferenceSection } from "@/lib/routes/openapi/reference";

type Surface = "all" | "computers" | "v1";
const SURFACES = [
  { value: "all", label: "All" },
  { value: "computers", label: "Sessions API" },
  { value: "v1", label: "Model API" },
] as const;

/** The API reference: the OpenAPI document's operations by tag, a filter by text and by surface. */
export function ApiReference({ sections, origin }: { sections: ReferenceSection[]; origin: string }) {
  const [query, setQuery] = useState("");
  const [surface, setSurface] = useState<Surface>("all");
  const shown = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return sections
      .filter((s) => surface === "all" || s.surface === surface)
      .map((s) => ({
        ...s,
        operations: s.operations.filter((o) => {
          const text = `${o.method} ${o.path} ${o.summary} ${s.tag}`.toLowerCase();
          return words.every((w) => text.includes(w));
        }),
      }))
      .filter((s) => s.operations.length > 0);
  }, [sections, query, surface]);
  const total = sections.reduce((n, s) => n + s.operations.length, 0);

  return (
    <div className="space-y-6">
      <Card>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3 text-sm">
          <div className="flex min-w-0 items-center gap-2">
            <span className="text-slate-600">Base URL</span>
            <code className="break-all font-mono text-slate-900" data-testid="api-base-url">
              {origin}
            </code>
            <CopyButton value={origin} label="Copy" />
          </div>
          <a
            href="/openapi.json"
            className="font-medium text-brand-700 underline-offset-2 hover:underline"
            download="cabin-openapi.json"
          >
            Download OpenAPI 3.1 (JSON)
          </a>
          <span className="text-slate-600">
            Authentication: <code className="font-mono">Authorization: Bearer &lt;API key&gt;</code>
          </span>
        </div>
      </Card>

      <div className="flex flex-wrap items-end gap-3">
        <label className="flex w-full min-w-0 flex-col gap-1 text-sm sm:w-auto sm:max-w-sm sm:flex-1">
          <span className="font-medium text-slate-700">Filter operations</span>
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="e.g. tabs, screenshot, chat"
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        </label>
        <ToggleGroup label="Surface" options={SURFACES} value={surface} onChange={setSurface} />
        <span className="text-sm text-slate-500" aria-live="polite">
          {shown.reduce((n, s) => n + s.operations.length, 0)} of {total} operations
        </span>
      </div>

      {shown.length === 0 ? (
        <Card>
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700" role="status">
            <span>
              No operation matches “{query}”{surface !== "all" ? " in this surface" : ""}.
            </span>
            <Button variant="secondary" onClick={() => (setQuery(""), setSurface("all"))}>
              Clear the filter
            </Button>
          </div>
        </Card>
      ) : (
        shown.map((s) => (
          <section
            key={s.tag}
            aria-labelledby={`tag-${s.tag}`}
            className="rounded-lg border border-slate-200 bg-white shadow-sm"
          >
            <header className="border-b border-slate-200 px-4 py-3">
              <h2 id={`tag-${s.tag}`} className="flex items-center gap-2 text-sm font-semibold text-slate-800">
                {s.tag}
                <span className="rounded bg-slate-100 px-1.5 text-xs font-normal text-slate-600">
                  {s.surface === "v1" ? "/v1" : "/computers"}
                </span>
              </h2>
              <p className="mt-0.5 text-sm text-slate-600">{s.description}</p>
            </header>
            {s.operations.map((o) => (
              <OperationDetails key={o.id} operation={o} />
            ))}
          </section>
        ))
      )}
    </div>
  );
}
