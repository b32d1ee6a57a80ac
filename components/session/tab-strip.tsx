"use client";

import { useState, type FormEvent } from "react";
import { useCloseTab, useOpenTab, useSwitchTab, type SessionTab } from "@/components/session/use-session";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

const LAST_TAB_REASON = "A browser session keeps at least one tab open, so its last tab cannot be closed. Open another tab first, or stop the session.";

function tabLabel(tab: SessionTab): string {
  return tab.title || tab.url || "New tab";
}

/** "+": a small form that opens a tab at a URL (empty: a blank tab). */
function OpenTabForm({ sessionId, onDone }: { sessionId: string; onDone: () => void }) {
  const open = useOpenTab(sessionId);
  const [url, setUrl] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    open.mutate(url.trim(), { onSuccess: onDone });
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-center" aria-label="Open a tab">
      <label className="sr-only" htmlFor="open-tab-url">
        URL of the new tab
      </label>
      <input
        id="open-tab-url"
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://example.com"
        autoFocus
        className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={open.isPending}>
          {open.isPending ? "Opening…" : "Open tab"}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      {open.error && <Alert>{open.error.message}</Alert>}
    </form>
  );
}

/** The browser session's tabs: the active one marked; click switches (the live view follows), × closes, + opens. */
export function TabStrip({ sessionId, tabs }: { sessionId: string; tabs: SessionTab[] | null }) {
  const switchTab = useSwitchTab(sessionId);
  const closeTab = useCloseTab(sessionId);
  const [opening, setOpening] = useState(false);
  const error = switchTab.error ?? closeTab.error;
  const onlyOne = tabs?.length === 1;

  return (
    <div className="space-y-2">
      <div className="flex items-center gap-2">
        <ul className="flex min-w-0 flex-1 gap-1 overflow-x-auto pb-1" aria-label="Tabs" data-testid="tab-strip">
          {tabs === null && <li className="px-2 py-1.5 text-sm text-slate-500">Reading tabs…</li>}
          {tabs?.map((tab) => (
            <li
              key={tab.id}
              data-testid="tab"
              data-tab-id={tab.id}
              data-active={tab.active ? "true" : "false"}
              className={`flex shrink-0 items-center rounded-md border text-sm ${tab.active ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-200 bg-white text-slate-700"}`}
            >
              <button
                type="button"
                onClick={() => !tab.active && switchTab.mutate(tab.id)}
                aria-current={tab.active ? "page" : undefined}
                title={tab.url}
                className="max-w-48 truncate rounded-l-md px-2.5 py-1.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500"
              >
                {tabLabel(tab)}
              </button>
              <button
                type="button"
                onClick={() => closeTab.mutate(tab.id)}
                disabled={onlyOne || closeTab.isPending}
                aria-label={`Close tab ${tabLabel(tab)}`}
                title={onlyOne ? LAST_TAB_REASON : `Close ${tabLabel(tab)}`}
                className="rounded-r-md px-2 py-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <Button variant="secondary" onClick={() => setOpening(true)} aria-label="Open a new tab" className="shrink-0" disabled={opening}>
          +
        </Button>
      </div>
      {onlyOne && (
        <p className="text-xs text-slate-500" data-testid="last-tab-reason">
          {LAST_TAB_REASON}
        </p>
      )}
      {opening && <OpenTabForm sessionId={sessionId} onDone={() => setOpening(false)} />}
      {error && <Alert>{error.message}</Alert>}
    </div>
  );
}
