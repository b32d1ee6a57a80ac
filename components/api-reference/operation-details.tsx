import { CodeBlock } from "@/components/ui/code-block";
import type { ReferenceOperation } from "@/lib/routes/openapi/reference";

const METHOD_COLORS: Record<string, string> = {
  GET: "bg-sky-100 text-sky-800",
  POST: "bg-emerald-100 text-emerald-800",
  PUT: "bg-amber-100 text-amber-800",
  PATCH: "bg-amber-100 text-amber-800",
  DELETE: "bg-red-100 text-red-800",
};

function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={
        `inline-block w-16 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs ` +
        `font-semibold ${METHOD_COLORS[method] ?? "bg-slate-100 text-slate-800"}`
      }
    >
      {method}
    </span>
  );
}

/** The document's descriptions mark names with backticks (Markdown): shown as code. */
function WithCode({ text }: { text: string }) {
  return text.split(/`([^`]+)`/).map((part, i) =>
    i % 2 ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em]">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

/** One operation, folded: method, path and summary; unfolded: what it takes, what it answers, a curl to copy. */
export function OperationDetails({ operation }: { operation: ReferenceOperation }) {
  return (
    <details className="group border-b border-slate-200 last:border-b-0" data-testid={`operation-${operation.id}`}>
      <summary
        className={
          "flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 hover:bg-slate-50 " +
          "focus-visible:bg-slate-50"
        }
      >
        <MethodBadge method={operation.method} />
        <code className="min-w-0 break-all font-mono text-sm text-slate-900">{operation.path}</code>
        <span className="text-sm text-slate-600">{operation.summary}</span>
      </summary>
      <div className="space-y-4 px-4 pb-4 pt-1">
        {operation.description && (
          <p className="whitespace-pre-line text-sm text-slate-700">
            <WithCode text={operation.description} />
          </p>
        )}
        <FieldList operation={operation} />
        <div>
          <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Answers</h4>
          <ul className="space-y-0.5 text-sm">
            {operation.responses.map((r) => (
              <li key={r.status} className="flex gap-2">
                <code
                  className={
                    `w-10 shrink-0 ` +
                    `font-mono ${r.status.startsWith("2") || r.status.startsWith("3") ? "text-emerald-700" : "text-red-700"}`
                  }
                >
                  {r.status}
                </code>
                <span className="text-slate-700">
                  <WithCode text={r.description} />
                </span>
              </li>
            ))}
          </ul>
        </div>
        <CodeBlock caption="Example" code={operation.curl} copyLabel="Copy curl" testId={`curl-${operation.id}`} />
      </div>
    </details>
  );
}

function FieldList({ operation }: { operation: ReferenceOperation }) {
  if (!operation.fields.length) return <p className="text-sm text-slate-500">Takes no parameters and no body.</p>;
  return (
    <div>
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Parameters and body</h4>
      <dl className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
        {operation.fields.map((f) => (
          <div key={`${f.in}:${f.name}`} className="grid gap-1 px-3 py-2 sm:grid-cols-[14rem_1fr]">
            <dt className="min-w-0">
              <code className="break-all font-mono text-slate-900">{f.name}</code>
              <span className="ml-2 text-xs text-slate-500">
                {f.in}
                {f.required ? ", required" : ""}
              </span>
            </dt>
            <dd className="min-w-0 text-slate-700">
              <code className="break-words font-mono text-xs text-brand-700">{f.type}</code>
              {f.description && (
                <span className="ml-2">
                  <WithCode text={f.description} />
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
