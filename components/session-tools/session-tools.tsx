"use client";

import { useCallback, useState } from "react";
import { CdpPanel } from "@/components/session-tools/cdp-panel";
import { EventTimeline } from "@/components/session-tools/event-timeline";
import { ExecConsole } from "@/components/session-tools/exec-console";
import type { TimelineEntry } from "@/components/session-tools/timeline-model";
import type { SessionToolsSubject } from "@/components/session-tools/types";

/**
 * The session page's panels: Connect with Playwright (browser), the exec console
 * (desktop) and the event timeline. One column that fits a side column at
 * 1280 px and stacks at 390 px. The timeline notices the end of the session
 * before the page's own data does, and the panels stop offering actions then.
 */
export function SessionTools({
  session,
  onEntries,
}: {
  session: SessionToolsSubject;
  onEntries?: (entries: TimelineEntry[]) => void;
}) {
  const [endedBy, setEndedBy] = useState<string | null>(null);
  // Commands run from this page, by request id, so the timeline can name what produced an output.
  const [commands, setCommands] = useState<ReadonlyMap<string, string>>(new Map());
  const remember = useCallback(
    (requestId: string, command: string) => setCommands((m) => new Map(m).set(requestId, command)),
    [],
  );
  const ended = session.status === "terminated" || endedBy !== null;
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="session-tools">
      {session.kind === "browser" && <CdpPanel cdpUrl={session.endpoints.cdp} ended={ended} />}
      {session.kind === "desktop" && <ExecConsole sessionId={session.id} ended={ended} onStarted={remember} />}
      <EventTimeline
        sessionId={session.id}
        ended={session.status === "terminated"}
        onEnded={setEndedBy}
        commands={commands}
        onEntries={onEntries}
      />
    </div>
  );
}
