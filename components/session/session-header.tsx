"use client";

import { useState } from "react";
import { Countdown } from "@/components/sessions/countdown";
import { StatusBadge } from "@/components/sessions/status-badge";
import { useKeepSessionAlive, useStopSession, useTick } from "@/components/sessions/use-sessions";
import type { SessionView } from "@/components/session/use-session";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog } from "@/components/ui/dialog";

/** Stop asks in the shared ConfirmDialog before ending the session (it cannot be undone). */
function StopControl({ id }: { id: string }) {
  const stop = useStopSession();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Stop
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Stop this session?"
        message="It ends for good; anything using it loses it."
        confirmLabel="Stop session"
        pending={stop.isPending}
        error={stop.error?.message}
        onCancel={() => setConfirming(false)}
        onConfirm={() => stop.mutate(id, { onSuccess: () => setConfirming(false) })}
      />
    </>
  );
}

/** Kind, status, id, the two countdowns against the server's clock, keep-alive and stop. */
export function SessionHeader({ session }: { session: SessionView }) {
  const now = useTick();
  const keepAlive = useKeepSessionAlive();
  const live = session.status !== "terminated";
  return (
    <header className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-xl font-semibold text-slate-900">
          {session.kind === "desktop" ? "Desktop" : "Browser"} session
        </h1>
        <StatusBadge status={session.status} reason={session.termination_reason} />
        {session.persistent && <span className="text-xs text-slate-500">persistent</span>}
      </div>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 truncate font-mono text-sm text-slate-700" data-testid="session-id" title={session.id}>
          {session.id}
        </code>
        <CopyButton value={session.id} label="Copy id" />
      </div>
      {live && (
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            <Countdown
              label="expires in"
              deadline={session.expires_at}
              now={now}
              skewMs={session.skew_ms}
              testId="expires-countdown"
            />
            {session.auto_kill && (
              <Countdown
                label="idle in"
                deadline={session.idle_expires_at}
                now={now}
                skewMs={session.skew_ms}
                testId="idle-countdown"
              />
            )}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="secondary" onClick={() => keepAlive.mutate(session.id)} disabled={keepAlive.isPending}>
              Keep alive
            </Button>
            <StopControl id={session.id} />
          </div>
          {keepAlive.error && (
            <p role="alert" className="w-full text-xs text-red-700">
              {keepAlive.error.message}
            </p>
          )}
        </div>
      )}
    </header>
  );
}
