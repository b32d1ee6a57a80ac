import Link from "next/link";
import { endSentence } from "@/components/sessions/end-reason";
import { Button } from "@/components/ui/button";

const backLink = "font-medium text-brand-700 underline underline-offset-2";

export function SessionLoading() {
  return (
    <div aria-busy="true" aria-label="Loading the session" className="animate-pulse space-y-4">
      <span className="block h-6 w-48 rounded bg-slate-100" />
      <span className="block h-4 w-80 max-w-full rounded bg-slate-100" />
      <span className="block aspect-video w-full rounded-lg bg-slate-100" />
    </div>
  );
}

export function SessionNotFound({ id }: { id: string }) {
  return (
    <div
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-6 text-sm text-slate-700"
      data-testid="session-not-found"
    >
      <h1 className="text-lg font-semibold text-slate-900">Session not found</h1>
      <p>
        There is no session <code className="font-mono break-all">{id}</code> in this organization. It may belong to
        another team, or the link may be mistyped.
      </p>
      <Link href="/sessions" className={backLink}>
        Back to sessions
      </Link>
    </div>
  );
}

export function SessionFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      <p className="flex-1">The session could not be loaded: {message}</p>
      <Button variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** In place of the viewer once the session has ended: why it ended. */
export function SessionEnded({ reason }: { reason: string | null }) {
  return (
    <div
      role="status"
      className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-md bg-slate-100 p-6 text-center"
      data-testid="session-ended"
    >
      <p className="text-base font-semibold text-slate-900">This session has ended</p>
      <p className="text-sm text-slate-700" data-testid="session-ended-reason" data-reason={reason ?? ""}>
        {endSentence(reason)}
      </p>
      <Link href="/sessions" className={`text-sm ${backLink}`}>
        Back to sessions
      </Link>
    </div>
  );
}
