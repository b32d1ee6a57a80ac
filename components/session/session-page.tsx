"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useState } from "react";
import { queryKeys } from "@/components/query-keys";
import { LiveViewer } from "@/components/session/live-viewer";
import { SessionFields } from "@/components/session/session-fields";
import { SessionHeader } from "@/components/session/session-header";
import { SessionEnded, SessionFailed, SessionLoading, SessionNotFound } from "@/components/session/session-states";
import { SessionTools } from "@/components/session-tools/session-tools";
import type { TimelineEntry } from "@/components/session-tools/timeline-model";
import { ReplaysPanel } from "@/components/session/replays-panel";
import { SessionTask } from "@/components/session/session-task";
import { FilesPanel } from "@/components/sessions/files-panel";
import { TabStrip } from "@/components/session/tab-strip";
import { useSessionDetail } from "@/components/session/use-session";
import { useWatchKeepAlive } from "@/components/session/use-watch-keep-alive";
import { Card } from "@/components/ui/card";

/**
 * /sessions/{id}: the live viewer with takeover, the tab strip, countdowns and the session's fields, polled every 2 s.
 */
export function SessionPage({ id }: { id: string }) {
  const detail = useSessionDetail(id);
  const queryClient = useQueryClient();
  const [endedByStream, setEndedByStream] = useState<string | null>(null);
  // The timeline's entries, for the Replays panel's markers (one /events stream for both).
  const [entries, setEntries] = useState<TimelineEntry[]>([]);
  // The stream says "ended" before the next poll: show it now, and read the row for the recorded reason.
  const onEnded = useCallback(
    (reason: string) => {
      setEndedByStream(reason);
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions.detail(id) });
    },
    [queryClient, id],
  );

  const watched = detail.data !== undefined && detail.data.status !== "terminated" && endedByStream === null;
  useWatchKeepAlive(detail.data ?? { id, auto_kill: false, idle_timeout_seconds: 0 }, watched);

  if (detail.isPending) return <SessionLoading />;
  if (detail.isError && !detail.data) {
    if ((detail.error as { status?: number }).status === 404) return <SessionNotFound id={id} />;
    return <SessionFailed message={detail.error.message} onRetry={() => void detail.refetch()} />;
  }
  const session = detail.data;
  // A failed poll keeps the last read on screen (with a note), unless the session is gone (404).
  const ended = session.status === "terminated" || endedByStream !== null;

  return (
    <div className="space-y-4">
      <Link href="/sessions" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
        ← Sessions
      </Link>
      <SessionHeader session={session} />
      <SessionTask session={session} />
      {detail.error && (
        <p role="alert" className="text-xs text-amber-800">
          Could not refresh this session ({detail.error.message}); showing what was last read.
        </p>
      )}
      {/* The screen takes the whole main column; tools and details follow (beside each other on a wide window). */}
      <Card title="Screen">
        <div className="space-y-3">
          {!ended && session.kind === "browser" && <TabStrip sessionId={session.id} tabs={session.tabs} />}
          {ended ? (
            <SessionEnded
              reason={session.termination_reason ?? endedByStream}
              screenshot={session.final_screenshot}
              viewport={session.viewport}
            />
          ) : (
            <LiveViewer wsUrl={session.endpoints.ws} viewport={session.viewport} onEnded={onEnded} />
          )}
        </div>
      </Card>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0 space-y-4">
          <ReplaysPanel sessionId={session.id} live={!ended} entries={entries} />
          <SessionTools session={session} onEntries={setEntries} />
        </div>
        <aside className="min-w-0 space-y-4">
          <FilesPanel sessionId={session.id} kind={session.kind} ended={ended} />
          <details open className="group rounded-lg border border-slate-200 bg-white" data-testid="session-details">
            <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-slate-900">Details</summary>
            <div className="border-t border-slate-100 px-4 py-3">
              <SessionFields session={session} />
            </div>
          </details>
        </aside>
      </div>
    </div>
  );
}
