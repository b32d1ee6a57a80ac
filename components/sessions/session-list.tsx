"use client";

import { useState } from "react";
import { SessionRow } from "@/components/sessions/session-row";
import {
  NoMatchingSessions,
  NoSessionsYet,
  SessionsFailed,
  SessionsLoading,
} from "@/components/sessions/session-list-states";
import { useSessionList, useTick, type SessionFilter } from "@/components/sessions/use-sessions";
import { Button } from "@/components/ui/button";
import { ToggleGroup } from "@/components/ui/toggle-group";

const FILTERS: { value: SessionFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "live", label: "Live" },
  { value: "ended", label: "Ended" },
  { value: "persistent", label: "Persistent" },
];
const PAGE_SIZE = 25;

/** The organization's sessions, live first, refreshed every two seconds, with countdowns ticking in between. */
export function SessionList({ origin }: { origin: string }) {
  const [filter, setFilter] = useState<SessionFilter>("all");
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const list = useSessionList({ filter, q: q.trim(), page, pageSize: PAGE_SIZE });
  const now = useTick();

  function reset() {
    setFilter("all");
    setQ("");
    setPage(1);
  }

  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  const searching = filter !== "all" || q.trim() !== "";

  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <ToggleGroup
          label="Filter sessions"
          options={FILTERS}
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(1);
          }}
        />
        <input
          type="search"
          aria-label="Search by id or context_id"
          placeholder="Search id or context_id"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setPage(1);
          }}
          className={
            "w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm focus:border-brand-500 focus:ring-2 " +
            "focus:ring-brand-500/40 focus:outline-none sm:w-64"
          }
        />
      </div>
      {list.isPending ? (
        <SessionsLoading />
      ) : list.isError && !list.data ? (
        <SessionsFailed message={list.error.message} onRetry={() => void list.refetch()} />
      ) : list.data.total === 0 ? (
        searching ? (
          <NoMatchingSessions onReset={reset} />
        ) : (
          <NoSessionsYet origin={origin} />
        )
      ) : (
        <>
          {list.isError && <SessionsFailed message={list.error.message} onRetry={() => void list.refetch()} />}
          <ul className="divide-y divide-slate-100" data-testid="session-list">
            {list.data.data.map((s) => (
              <SessionRow key={s.id} session={s} now={now} skewMs={list.data.skew_ms} />
            ))}
          </ul>
          <nav
            aria-label="Pages"
            className="flex items-center justify-between gap-2 border-t border-slate-100 pt-3 text-sm text-slate-600"
          >
            <span className="tabular-nums">
              {list.data.total.toLocaleString("en-US")} {list.data.total === 1 ? "session" : "sessions"} · page {page}/
              {pages}
            </span>
            <span className="flex gap-2">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Previous
              </Button>
              <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Next
              </Button>
            </span>
          </nav>
        </>
      )}
    </div>
  );
}
