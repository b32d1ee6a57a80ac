"use client";

import { Button } from "@/components/ui/button";

/**
 * Something could not be loaded or done: what, in plain words, why (the
 * server's message, when there is one) and a Retry. Used by lists whose query
 * failed and by the dashboard's error page.
 */
export function ErrorState({ what, detail, onRetry }: { what: string; detail?: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className={
        "flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm " +
        "text-red-800"
      }
      data-testid="error-state"
    >
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="font-medium">{what}</p>
        {detail && <p className="break-words text-red-700">{plainDetail(detail)}</p>}
      </div>
      <Button variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** Network failures reach us as the browser's terse "Failed to fetch"; say what it means. */
function plainDetail(detail: string): string {
  if (/failed to fetch|networkerror|load failed/i.test(detail))
    return "The server could not be reached. Check your connection, then retry.";
  return detail;
}
