"use client";

import { useEffect, useState, type FormEvent } from "react";
import { openTabUrlProblem } from "@/components/session/tab-url";
import { useNavigateTab, useTabHistory, type SessionTab } from "@/components/session/use-session";
import { Button } from "@/components/ui/button";

/**
 * The current tab's address: Back and Forward go through its history, Enter loads the
 * typed URL in this tab (not a new one), Reload loads its address again. The field follows the tab's URL while it is
 * not
 * being edited. A page that did not load goes to `onProblem`, like the + form's.
 */
export function AddressBar(props: { sessionId: string; tab: SessionTab; onProblem: (message: string | null) => void }) {
  const navigate = useNavigateTab(props.sessionId);
  const history = useTabHistory(props.sessionId);
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState(props.tab.url);
  const [invalid, setInvalid] = useState<string | null>(null);
  const shown = props.tab.url.startsWith("chrome-error:") ? "" : props.tab.url;
  useEffect(() => {
    if (!editing) setUrl(shown);
  }, [shown, editing]);

  const go = (target: string) => {
    const problem = target ? openTabUrlProblem(target) : "Enter a URL to load in this tab";
    setInvalid(problem);
    if (problem) return;
    navigate.mutate(
      { tabId: props.tab.id, url: target },
      {
        onSuccess: (answer) => {
          const failed = answer.status === "error" ? (answer.error_message ?? "The page did not load") : null;
          props.onProblem(failed);
          setEditing(false);
        },
      },
    );
  };
  // Whether the tab has history to go to is not known here (the tab list does not say): with none, nothing happens.
  const step = (direction: "back" | "forward") =>
    history.mutate(
      { tabId: props.tab.id, history: direction },
      {
        onSuccess: (answer) =>
          props.onProblem(answer.status === "error" ? (answer.error_message ?? "The page did not load") : null),
      },
    );
  const busy = navigate.isPending || history.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go(url.trim());
  };
  const message = invalid ?? navigate.error?.message ?? history.error?.message;
  return (
    <div className="space-y-1">
      <form onSubmit={submit} noValidate className="flex items-center gap-1.5" aria-label="Address of the current tab">
        <Button
          variant="ghost"
          className="shrink-0 px-2"
          aria-label="Back"
          title="Back: the previous page of this tab"
          disabled={busy}
          onClick={() => step("back")}
        >
          ←
        </Button>
        <Button
          variant="ghost"
          className="shrink-0 px-2"
          aria-label="Forward"
          title="Forward: the next page of this tab"
          disabled={busy}
          onClick={() => step("forward")}
        >
          →
        </Button>
        <label className="sr-only" htmlFor="tab-address">
          Address of the current tab
        </label>
        <input
          id="tab-address"
          type="url"
          value={url}
          onFocus={() => setEditing(true)}
          onBlur={() => url === shown && setEditing(false)}
          onChange={(e) => {
            setEditing(true);
            setUrl(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              setEditing(false);
              setUrl(shown);
              setInvalid(null);
            }
          }}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? "tab-address-problem" : undefined}
          placeholder="Type a URL and press Enter"
          spellCheck={false}
          autoComplete="off"
          className={
            "min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-1.5 font-mono text-xs " +
            "focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
          }
        />
        <Button type="submit" variant="secondary" disabled={busy} className="shrink-0">
          {navigate.isPending ? "Loading…" : "Go"}
        </Button>
        <Button
          variant="ghost"
          className="shrink-0"
          aria-label="Reload the current tab"
          title="Reload: load this tab's address again"
          disabled={busy || !shown}
          onClick={() => go(shown)}
        >
          ↻
        </Button>
      </form>
      {message && (
        <p id="tab-address-problem" role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
    </div>
  );
}
