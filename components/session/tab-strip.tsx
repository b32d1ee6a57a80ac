"use client";

import { useState, type FormEvent } from "react";
import { useCloseTab, useOpenTab, useSwitchTab, type SessionTab } from "@/components/session/use-session";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { AddressBar } from "@/components/session/address-bar";
import { openTabUrlProblem } from "@/components/session/tab-url";

const LAST_TAB_REASON =
  "A browser session keeps at least one tab open, so its last tab cannot be closed. Open another tab first, or " +
  "stop the session.";

/** Chromium's own error page (a failed navigation) shows as what it is, not as its internal URL. */
const failedLoad = (tab: SessionTab) => tab.url.startsWith("chrome-error:");

function tabLabel(tab: SessionTab): string {
  if (failedLoad(tab)) return "Page failed to load";
  return tab.title || tab.url || "New tab";
}

export { openTabUrlProblem };

const EGRESS_NOTE =
  "The server's egress policy decides what sessions may reach: the public internet, but never this server " +
  "itself, the host's loopback and own addresses, link-local or cloud-metadata addresses (nor private ranges " +
  "when the operator chose SESSION_EGRESS=public-only). The operator can allow exceptions with " +
  "SESSION_EGRESS_ALLOW.";

/**
 * A navigation that did not load, as the API answered it; a refusal by the egress policy also says what sessions may
 * reach.
 */
function NavigationProblem({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  const refused = /egress policy/.test(message);
  return (
    <div
      role="alert"
      data-testid="navigation-problem"
      className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium">{refused ? "Refused by the egress policy" : "The page did not load"}</p>
        <p className="break-words font-mono text-xs">{message}</p>
        {refused && <p className="text-xs text-red-900">{EGRESS_NOTE}</p>}
      </div>
      <Button variant="ghost" className="px-2 py-0.5" aria-label="Dismiss" onClick={onDismiss}>
        ✕
      </Button>
    </div>
  );
}

/** "+": a small form that opens a tab at a URL (empty: a blank tab). A navigation error goes to `onProblem`. */
function OpenTabForm({
  sessionId,
  onDone,
  onProblem,
}: {
  sessionId: string;
  onDone: () => void;
  onProblem: (message: string | null) => void;
}) {
  const open = useOpenTab(sessionId);
  const [url, setUrl] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = openTabUrlProblem(url.trim());
    setInvalid(problem);
    if (problem) return;
    open.mutate(url.trim(), {
      onSuccess: (answer) => {
        const result = (answer as { result?: { navigation_error?: unknown }; error_message?: unknown }).result;
        onProblem(typeof result?.navigation_error === "string" ? result.navigation_error : null);
        onDone();
      },
    });
  }
  const message = invalid ?? open.error?.message;
  return (
    <div className="space-y-2">
      <form
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-2 sm:flex-row sm:items-center"
        aria-label="Open a tab"
      >
        <label className="sr-only" htmlFor="open-tab-url">
          URL of the new tab
        </label>
        <input
          id="open-tab-url"
          type="url"
          value={url}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? "open-tab-problem" : undefined}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com"
          autoFocus
          className={
            "min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 " +
            "focus:outline-none focus:ring-2 focus:ring-brand-500/40"
          }
        />
        <div className="flex gap-2">
          <Button type="submit" disabled={open.isPending}>
            {open.isPending ? "Opening…" : "Open tab"}
          </Button>
          <Button variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
      {message && (
        <p id="open-tab-problem" role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
    </div>
  );
}

/**
 * The browser session's tabs: the active one marked; click switches (the live view follows), × closes, + opens; the
 * address field loads a URL in the active tab.
 */
export function TabStrip({ sessionId, tabs }: { sessionId: string; tabs: SessionTab[] | null }) {
  const switchTab = useSwitchTab(sessionId);
  const closeTab = useCloseTab(sessionId);
  const [opening, setOpening] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const error = switchTab.error ?? closeTab.error;
  const onlyOne = tabs?.length === 1;
  const active = tabs?.find((t) => t.active);

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
              data-failed={failedLoad(tab) ? "true" : undefined}
              className={
                `flex shrink-0 items-center rounded-md border ` +
                `text-sm ${failedLoad(tab) ? "border-red-300 bg-red-50 text-red-800" : tab.active ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-200 bg-white text-slate-700"}`
              }
            >
              <button
                type="button"
                onClick={() => !tab.active && switchTab.mutate(tab.id)}
                aria-current={tab.active ? "page" : undefined}
                title={tab.url}
                className={
                  "max-w-48 truncate rounded-l-md px-2.5 py-1.5 text-left hover:bg-slate-50 " +
                  "focus-visible:outline-2 focus-visible:outline-brand-500"
                }
              >
                {tabLabel(tab)}
              </button>
              <button
                type="button"
                onClick={() => closeTab.mutate(tab.id)}
                disabled={onlyOne || closeTab.isPending}
                aria-label={`Close tab ${tabLabel(tab)}`}
                title={onlyOne ? LAST_TAB_REASON : `Close ${tabLabel(tab)}`}
                className={
                  "rounded-r-md px-2 py-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 " +
                  "disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent"
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <Button
          variant="secondary"
          onClick={() => setOpening(true)}
          aria-label="Open a new tab"
          className="shrink-0"
          disabled={opening}
        >
          +
        </Button>
      </div>
      {active && <AddressBar sessionId={sessionId} tab={active} onProblem={setProblem} />}
      {onlyOne && (
        <p className="text-xs text-slate-500" data-testid="last-tab-reason">
          {LAST_TAB_REASON}
        </p>
      )}
      {problem && <NavigationProblem message={problem} onDismiss={() => setProblem(null)} />}
      {opening && <OpenTabForm sessionId={sessionId} onDone={() => setOpening(false)} onProblem={setProblem} />}
      {error && <Alert>{error.message}</Alert>}
    </div>
  );
}
