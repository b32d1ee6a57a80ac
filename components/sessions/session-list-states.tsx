import Link from "next/link";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/** No session yet: the two ways to start one, with this server's URL filled in. */
export function NoSessionsYet({ origin }: { origin: string }) {
  const curl = `curl -X POST ${origin}/computers -H "Authorization: Bearer $CABIN_API_KEY"`;
  return (
    <div className="space-y-3 py-4 text-sm text-slate-700" data-testid="sessions-empty">
      <p className="font-medium text-slate-900">No sessions yet.</p>
      <p>
        Start one with <strong className="font-medium text-slate-900">New session</strong> at the top of this page, or
        from a terminal with this curl:
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <pre
          className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100"
          data-testid="sessions-empty-curl"
        >
          {curl}
        </pre>
        <CopyButton value={curl} />
      </div>
      <p>
        It needs an API key in <code className="font-mono">$CABIN_API_KEY</code>:{" "}
        <Link href="/keys" className="font-medium text-brand-700 underline underline-offset-2">
          create one on the Keys page
        </Link>
        .
      </p>
    </div>
  );
}

/** Nothing matches the filter or search, though the organization has sessions. */
export function NoMatchingSessions({ onReset }: { onReset: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-3 py-4 text-sm text-slate-700">
      <p>No session matches this filter and search.</p>
      <Button variant="secondary" onClick={onReset}>
        Show all sessions
      </Button>
    </div>
  );
}

export function SessionsLoading() {
  return (
    <ul aria-busy="true" aria-label="Loading sessions" className="divide-y divide-slate-100">
      {[0, 1, 2].map((i) => (
        <li key={i} className="flex animate-pulse flex-col gap-2 py-3">
          <span className="h-4 w-32 rounded bg-slate-100" />
          <span className="h-3 w-64 max-w-full rounded bg-slate-100" />
        </li>
      ))}
    </ul>
  );
}

export function SessionsFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className={
        "flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm " +
        "text-red-800"
      }
    >
      <p className="flex-1">The sessions could not be loaded: {message}</p>
      <Button variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
