"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { queryKeys } from "@/components/query-keys";
import { SessionTools } from "@/components/session-tools/session-tools";
import { StatusBadge } from "@/components/sessions/status-badge";
import { Alert, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { fetchJson, RequestFailed } from "@/lib/fetch-json";
// Type-only: erased at compile time, so no server code reaches the browser.
import type { SessionToolsFields } from "@/lib/computers/dashboard-streams";

const REFRESH_MS = 5_000;

/** The session page's data for its tools (GET /api/sessions/{id}/tools), refreshed while the session lives. */
export function SessionToolsPage({ id }: { id: string }) {
  const query = useQuery({
    queryKey: queryKeys.sessions.tools(id),
    queryFn: () => fetchJson<SessionToolsFields>(`/api/sessions/${encodeURIComponent(id)}/tools`),
    refetchInterval: (q) => (q.state.data?.status === "terminated" ? false : REFRESH_MS),
  });
  if (query.isPending) return <p className="text-sm text-slate-600">Loading the session…</p>;
  if (query.isError) {
    const notFound = query.error instanceof RequestFailed && query.error.status === 404;
    return (
      <Alert>
        <div className="flex flex-wrap items-center gap-3">
          <span>{notFound ? "No session with this id in your organization." : `The session could not be loaded: ${query.error.message}`}</span>
          {notFound ? (
            <Link href="/sessions" className="font-medium underline underline-offset-2">Back to Sessions</Link>
          ) : (
            <Button variant="secondary" onClick={() => query.refetch()}>Retry</Button>
          )}
        </div>
      </Alert>
    );
  }
  const session = query.data;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
      <Card title="Session">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-500">Id</dt>
          <dd className="min-w-0 break-all font-mono">{session.id}</dd>
          <dt className="text-slate-500">Kind</dt>
          <dd>{session.kind}</dd>
          <dt className="text-slate-500">Status</dt>
          <dd><StatusBadge status={session.status} reason={session.termination_reason} /></dd>
        </dl>
      </Card>
      <SessionTools session={session} />
    </div>
  );
}
