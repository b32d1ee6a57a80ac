import Link from "next/link";
import { endSentence } from "@/components/sessions/end-reason";
import { Button } from "@/components/ui/button";
import { formatTime } from "@/components/ui/format";

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
      className={
        "flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm " +
        "text-red-800"
      }
    >
      <p className="flex-1">The session could not be loaded: {message}</p>
      <Button variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** In place of the viewer once the session has ended: why it ended, and its last screen when one was kept. */
export function SessionEnded(props: {
  reason: string | null;
  screenshot?: { url: string; taken_at: string } | null;
  viewport?: { width: number; height: number };
}) {
  const { reason, screenshot, viewport } = props;
  const why = (
    <p className="text-sm text-slate-700" data-testid="session-ended-reason" data-reason={reason ?? ""}>
      {endSentence(reason)}
    </p>
  );
  if (screenshot)
    return (
      <div role="status" className="space-y-2" data-testid="session-ended">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <p className="text-base font-semibold text-slate-900">This session has ended</p>
          {why}
        </div>
        <figure className="space-y-1" data-testid="final-screenshot">
          {/* biome-ignore lint/performance/noImgElement: a member route of this server, not an optimizable asset */}
          <img
            src={screenshot.url}
            alt="The session's screen as it ended"
            width={viewport?.width ?? 1280}
            height={viewport?.height ?? 720}
            className="block h-auto w-full rounded-md border border-slate-200 bg-slate-100"
          />
          <figcaption className="text-xs text-slate-600">
            Its last screen, taken as it ended ({formatTime(screenshot.taken_at)}).
          </figcaption>
        </figure>
      </div>
    );
  return (
    <div
      role="status"
      className={
        "flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-md bg-slate-100 p-6 " +
        "text-center"
      }
      data-testid="session-ended"
    >
      <p className="text-base font-semibold text-slate-900">This session has ended</p>
      {why}
      <p className="text-xs text-slate-600" data-testid="no-final-screenshot">
        No last screen was kept{screenshot === null ? " (none is taken after a crash; they are kept 7 days)" : ""}.
      </p>
      <Link href="/sessions" className={`text-sm ${backLink}`}>
        Back to sessions
      </Link>
    </div>
  );
}
