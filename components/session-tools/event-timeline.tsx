"use client";

import { useEffect } from "react";
import { TimelineItem } from "@/components/session-tools/timeline-entry";
import { TIMELINE_LIMIT, type TimelineEntry } from "@/components/session-tools/timeline-model";
import { useSessionEvents, type StreamState } from "@/components/session-tools/use-session-events";
import { Card } from "@/components/ui/card";
import { useTick } from "@/components/sessions/use-sessions";

const STATE_LABEL: Record<StreamState, string> = { connecting: "connecting…", open: "live", closed: "not connected" };

/** The stream's state; once the session has ended its stream is over by design, so it says "ended". */
function StreamBadge({ state, ended }: { state: StreamState; ended: boolean }) {
  const tone =
    state === "open" ? "bg-emerald-50 text-emerald-800 ring-emerald-200" : "bg-slate-100 text-slate-600 ring-slate-200";
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}
      data-testid="timeline-state"
      data-state={state}
    >
      {ended && state === "closed" ? "ended" : STATE_LABEL[state]}
    </span>
  );
}

/** What runs on the session, live from its /events stream, newest first. */
export function EventTimeline(props: {
  sessionId: string;
  ended: boolean;
  onEnded: (reason: string) => void;
  /** Commands this page ran, by request id (the rest came through the API). */
  commands?: ReadonlyMap<string, string>;
  /** Told the entries whenever they change (the Replays panel puts them on the video). */
  onEntries?: (entries: TimelineEntry[]) => void;
}) {
  const { sessionId, ended, onEnded, onEntries } = props;
  // A session ended before the page opened answers its kept history and `ended` at once
  // (docs/watching-sessions.md). One that ends while watched keeps its stream until the
  // stream's own `ended` event: the page's poll may see "terminated" first.
  const { entries, state } = useSessionEvents(sessionId, true, onEnded);
  useEffect(() => onEntries?.(entries), [entries, onEntries]);
  const now = useTick();
  return (
    <Card title="Event timeline" actions={<StreamBadge state={state} ended={ended} />}>
      <div data-testid="event-timeline">
        {entries.length === 0 ? (
          <div className="py-2 text-sm text-slate-600" data-testid="timeline-empty">
            {ended ? (
              <p>
                This session has ended, and the server kept no events of it (it keeps those of its last 50 ended
                sessions until it restarts).
              </p>
            ) : (
              <>
                <p className="font-medium text-slate-800">
                  No actions yet — they appear here as your agent drives the session.
                </p>
                <p className="mt-1 text-xs text-slate-500">
                  Clicks, typing, navigation, tab changes and commands, each with its request id and how long it took.
                </p>
              </>
            )}
          </div>
        ) : (
          <>
            <ol className="space-y-3" aria-label="Session events, newest first">
              {entries.map((entry) => (
                <TimelineItem
                  key={entry.key}
                  entry={entry}
                  now={now}
                  command={entry.kind === "exec" ? props.commands?.get(entry.requestId) : undefined}
                />
              ))}
            </ol>
            {entries.length >= TIMELINE_LIMIT && (
              <p className="mt-3 text-xs text-slate-500">Showing the latest {TIMELINE_LIMIT} events.</p>
            )}
          </>
        )}
      </div>
    </Card>
  );
}
