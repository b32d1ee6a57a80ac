"use client";

import { useState, type FormEvent, type KeyboardEvent } from "react";
import { ExecRunOutput } from "@/components/session-tools/exec-output";
import { useExecRuns } from "@/components/session-tools/use-exec-runs";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";

/** Run shell commands in a desktop session, with the output streamed as it is produced. */
export function ExecConsole(props: {
  sessionId: string;
  ended: boolean;
  onStarted?: (requestId: string, command: string) => void;
}) {
  const { sessionId, ended } = props;
  const { runs, running, run, stop } = useExecRuns(sessionId, props.onStarted);
  const [command, setCommand] = useState("");
  const [cwd, setCwd] = useState("");
  const [timeout, setTimeoutSeconds] = useState("");
  const [showOptions, setShowOptions] = useState(false);
  // Position while walking back through earlier commands with ↑ (-1: not walking).
  const [recall, setRecall] = useState(-1);
  const [busyNotice, setBusyNotice] = useState(false);
  const history = runs.map((r) => r.command);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = command.trim();
    // Enter while a command runs is not dropped in silence: the command stays in the box, and the page says why.
    setBusyNotice(Boolean(trimmed) && running);
    if (!trimmed || running || ended) return;
    setRecall(-1);
    setCommand("");
    void run({ command: trimmed, cwd: cwd.trim() || undefined, timeoutSeconds: Number(timeout) || undefined });
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // With Stop in place of Run the form may have no submit button, so Enter would not reach submit().
    if (event.key === "Enter" && running) {
      event.preventDefault();
      setBusyNotice(Boolean(command.trim()));
      return;
    }
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    const next = event.key === "ArrowUp" ? Math.min(recall + 1, history.length - 1) : Math.max(recall - 1, -1);
    if (next === recall) return;
    event.preventDefault();
    setRecall(next);
    setCommand(next < 0 ? "" : history[next]);
  }

  return (
    <Card title="Exec console">
      <div className="space-y-3" data-testid="exec-console">
        {ended ? (
          <p className="text-sm text-slate-600">This session has ended: commands can no longer run in it.</p>
        ) : (
          <form onSubmit={submit} className="space-y-2">
            <div className="flex items-end gap-2">
              <div className="min-w-0 flex-1">
                <TextField
                  label="Command"
                  hint="Enter runs it; ↑ recalls the previous one. Runs as the desktop's user, in a shell."
                  value={command}
                  onChange={(e) => setCommand(e.target.value)}
                  onKeyDown={onKeyDown}
                  placeholder="ls -la ~"
                  autoComplete="off"
                  spellCheck={false}
                  className={
                    "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm " +
                    "shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
                  }
                />
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {/* Keyed apart: React would otherwise reuse the Stop <button> as Run (type submit) within the
                  same click, and the browser would then submit the form with what is in the box. */}
              {running ? (
                <Button key="stop" variant="danger" onClick={stop}>
                  Stop
                </Button>
              ) : (
                <Button key="run" type="submit" disabled={!command.trim()}>
                  Run
                </Button>
              )}
              <Button variant="ghost" onClick={() => setShowOptions((v) => !v)} aria-expanded={showOptions}>
                {showOptions ? "Hide options" : "Options"}
              </Button>
            </div>
            {busyNotice && running && (
              <p role="status" className="text-xs text-amber-800" data-testid="exec-busy">
                A command is still running: Stop it or wait for it to end, then press Enter again.
              </p>
            )}
            {showOptions && (
              <div className="grid gap-2 sm:grid-cols-2">
                <TextField
                  label="Working directory"
                  value={cwd}
                  onChange={(e) => setCwd(e.target.value)}
                  placeholder="/home/user"
                />
                <TextField
                  label="Timeout (seconds)"
                  type="number"
                  min={1}
                  value={timeout}
                  onChange={(e) => setTimeoutSeconds(e.target.value)}
                  placeholder="120"
                />
              </div>
            )}
          </form>
        )}
        {runs.length === 0 ? (
          <p className="text-sm text-slate-500" data-testid="exec-empty">
            No commands run from this page yet. Output appears here line by line while a command runs; stderr is shown
            in red. Commands sent through the API are in the event timeline.
          </p>
        ) : (
          <ol className="space-y-3 rounded-md bg-slate-900 p-3" aria-label="Runs, newest first" aria-live="polite">
            {runs.map((r) => (
              <ExecRunOutput key={r.id} run={r} />
            ))}
          </ol>
        )}
      </div>
    </Card>
  );
}
