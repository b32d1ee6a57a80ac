import type { ExecRun } from "@/components/session-tools/use-exec-runs";

function RunState({ run }: { run: ExecRun }) {
  if (run.state === "running") return <span className="text-sky-300">running…</span>;
  if (run.state === "stopped") return <span className="text-amber-300">stopped</span>;
  if (run.state === "failed") return <span className="text-red-300">failed: {run.error}</span>;
  return <span className={run.exitCode === 0 ? "text-emerald-300" : "text-amber-300"}>exit {run.exitCode}</span>;
}

/** One run in the console: the command, its output as it arrived (stderr in red), and how it ended. */
export function ExecRunOutput({ run }: { run: ExecRun }) {
  return (
    <li className="space-y-1" data-testid="exec-run" data-state={run.state}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 font-mono text-xs">
        <span className="min-w-0 break-all text-slate-300">
          <span aria-hidden className="select-none text-slate-500">
            ${" "}
          </span>
          {run.command}
        </span>
        <span data-testid="exec-status">
          <RunState run={run} />
        </span>
      </div>
      {run.chunks.length > 0 && (
        <pre
          className="max-h-72 overflow-auto whitespace-pre-wrap break-all font-mono text-xs leading-relaxed"
          data-testid="exec-output"
        >
          {run.chunks.map((chunk, i) => (
            <span
              key={i}
              data-stream={chunk.stream}
              className={chunk.stream === "stderr" ? "text-red-300" : "text-slate-100"}
            >
              {chunk.text}
            </span>
          ))}
        </pre>
      )}
    </li>
  );
}
