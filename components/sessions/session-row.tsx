"use client";

import Link from "next/link";
import { useState } from "react";
import { Countdown } from "@/components/sessions/countdown";
import { StatusBadge } from "@/components/sessions/status-badge";
import { useKeepSessionAlive, useStopSession, type DashboardSession } from "@/components/sessions/use-sessions";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { formatTime } from "@/components/ui/format";

/** Who started the session: a key (name and prefix) or the member who created it in the dashboard. */
function Creator({ session }: { session: DashboardSession }) {
  if (!session.created_by_key) {
    const member = session.created_by_member;
    return (
      <span data-testid="session-creator" title={member?.email}>
        {member ? member.name || member.email : session.task ? "an agent task" : "dashboard"}
      </span>
    );
  }
  return (
    <span data-testid="session-creator">
      {session.created_by_key.name} <span className="font-mono text-slate-500">{session.created_by_key.prefix}…</span>
    </span>
  );
}

/** One session: identity and facts on the left, countdowns and controls on the right (stacked on a phone). */
export function SessionRow({ session, now, skewMs }: { session: DashboardSession; now: number; skewMs: number }) {
  const stop = useStopSession();
  const keepAlive = useKeepSessionAlive();
  const live = session.status !== "terminated";
  const [confirming, setConfirming] = useState(false);
  const error = keepAlive.error;

  return (
    <li
      className="flex flex-col gap-3 py-3 lg:flex-row lg:items-center"
      data-testid="session-row"
      data-session-id={session.id}
    >
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">{session.kind}</span>
          <StatusBadge status={session.status} reason={session.termination_reason} />
          {session.persistent && <span className="text-xs text-slate-500">persistent</span>}
        </div>
        <p className="truncate font-mono text-xs" title={session.id}>
          <Link href={`/sessions/${session.id}`} className="text-brand-700 underline-offset-2 hover:underline">
            {session.id}
          </Link>
        </p>
        <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-500">
          <div className="flex gap-1">
            <dt>context</dt>
            <dd className="max-w-48 truncate font-mono text-slate-700">{session.context_id ?? "—"}</dd>
          </div>
          <div className="flex gap-1">
            <dt>created</dt>
            <dd className="text-slate-700">{formatTime(session.created_at)}</dd>
          </div>
          {session.tab_count !== null && (
            <div className="flex gap-1">
              <dt>tabs</dt>
              <dd className="text-slate-700 tabular-nums" data-testid="session-tabs">
                {session.tab_count}
              </dd>
            </div>
          )}
          {session.task && (
            <div className="flex min-w-0 gap-1">
              <dt>task</dt>
              <dd className="min-w-0 truncate text-slate-700" data-testid="session-task">
                <Link
                  href={`/tasks/${session.task.id}`}
                  className="font-mono text-brand-700 underline-offset-2 hover:underline"
                  title={session.task.instruction}
                >
                  {session.task.id}
                </Link>{" "}
                ({session.task.status})
              </dd>
            </div>
          )}
          <div className="flex gap-1">
            <dt>by</dt>
            <dd className="text-slate-700">
              <Creator session={session} />
            </dd>
          </div>
        </dl>
        {error && (
          <p role="alert" className="text-xs text-red-700">
            {error.message}
          </p>
        )}
      </div>
      {live && (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <div className="flex flex-col gap-0.5">
            <Countdown
              label="expires in"
              deadline={session.expires_at}
              now={now}
              skewMs={skewMs}
              testId="expires-countdown"
            />
            {session.auto_kill && (
              <Countdown
                label="idle in"
                deadline={session.idle_expires_at}
                now={now}
                skewMs={skewMs}
                testId="idle-countdown"
              />
            )}
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => keepAlive.mutate(session.id)} disabled={keepAlive.isPending}>
              Keep alive
            </Button>
            <Button variant="danger" onClick={() => setConfirming(true)} disabled={stop.isPending}>
              {stop.isPending ? "Stopping…" : "Stop"}
            </Button>
            <ConfirmDialog
              open={confirming}
              title="Stop this session?"
              message={
                <>
                  The {session.kind} session <code className="font-mono break-all">{session.id}</code> ends for good;
                  anything using it loses it.
                </>
              }
              confirmLabel="Stop session"
              pending={stop.isPending}
              error={stop.error?.message}
              onCancel={() => setConfirming(false)}
              onConfirm={() => stop.mutate(session.id, { onSuccess: () => setConfirming(false) })}
            />
          </div>
        </div>
      )}
    </li>
  );
}
