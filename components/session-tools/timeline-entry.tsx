import { endLabel } from "@/components/sessions/end-reason";
import { formatDuration, relativeTime, type TimelineEntry } from "@/components/session-tools/timeline-model";

const DOT: Record<string, string> = {
  pending: "bg-sky-500",
  success: "bg-emerald-500",
  error: "bg-red-500",
  exec: "bg-violet-500",
  ended: "bg-slate-500",
  input: "bg-amber-500",
};

/** How a command ended: its exit code, or that it was stopped (not a made-up "exit -1"). */
function execOutcome(entry: Extract<TimelineEntry, { kind: "exec" }>): string {
  if (entry.stopped === "by_caller") return "stopped";
  if (entry.stopped === "session_ended") return "stopped: the session ended";
  return entry.exitCode === undefined ? "running…" : `exit ${entry.exitCode}`;
}

function Row(props: {
  dot: string;
  title: React.ReactNode;
  meta: React.ReactNode;
  at: number;
  now: number;
  children?: React.ReactNode;
  testId: string;
  requestId?: string;
  status?: string;
}) {
  return (
    <li
      className="relative min-w-0 pl-5"
      data-testid={props.testId}
      data-request-id={props.requestId}
      data-status={props.status}
    >
      <span aria-hidden className={`absolute top-1.5 left-0 size-2 rounded-full ${props.dot}`} />
      <div className="flex flex-wrap items-baseline justify-between gap-x-2">
        <span className="min-w-0 break-words text-sm font-medium text-slate-900">{props.title}</span>
        <time
          className="shrink-0 text-xs text-slate-500"
          dateTime={new Date(props.at).toISOString()}
          title={new Date(props.at).toLocaleString()}
        >
          {relativeTime(props.at, props.now)}
        </time>
      </div>
      <div className="text-xs text-slate-600">{props.meta}</div>
      {props.children}
    </li>
  );
}

const idOf = (requestId: string) => <code className="break-all font-mono">{requestId}</code>;

/** One entry of the event timeline: an action with its outcome, a command's output, or the end of the session. */
export function TimelineItem({ entry, now, command }: { entry: TimelineEntry; now: number; command?: string }) {
  switch (entry.kind) {
    case "action": {
      const outcome =
        entry.status === "pending"
          ? "running…"
          : `${entry.status}${entry.durationMs !== undefined ? ` in ${formatDuration(entry.durationMs)}` : ""}`;
      return (
        <Row
          dot={DOT[entry.status]}
          title={entry.action}
          at={entry.at}
          now={now}
          testId="timeline-action"
          requestId={entry.requestId}
          status={entry.status}
          meta={
            <>
              {outcome} · {idOf(entry.requestId)}
            </>
          }
        >
          {entry.errorMessage && <p className="mt-0.5 text-xs text-red-700">{entry.errorMessage}</p>}
        </Row>
      );
    }
    case "exec": {
      const ran = command ?? entry.command;
      const exit = execOutcome(entry);
      return (
        <Row
          dot={DOT.exec}
          title={
            ran ? (
              <>
                exec <code className="break-all font-mono font-normal">{ran}</code>
              </>
            ) : (
              "exec"
            )
          }
          at={entry.at}
          now={now}
          testId="timeline-exec"
          requestId={entry.requestId}
          meta={
            <>
              {exit} · {entry.bytes ? `${entry.bytes} characters of output` : "no output"}
              {entry.stderrChunks ? ", with stderr" : ""} · {idOf(entry.requestId)}
            </>
          }
        >
          {entry.output && (
            <details className="mt-1">
              <summary className="cursor-pointer text-xs text-brand-700">Show output</summary>
              <pre
                className={
                  "mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-2 font-mono " +
                  "text-xs text-slate-100"
                }
              >
                {entry.output}
              </pre>
            </details>
          )}
        </Row>
      );
    }
    case "input":
      return (
        <Row
          dot={DOT.input}
          title={entry.what === "typed" ? `typed “${entry.text}”` : entry.text}
          meta="Take control: input from a person watching"
          at={entry.at}
          now={now}
          testId="timeline-input"
        />
      );
    case "ended":
      return (
        <Row
          dot={DOT.ended}
          title={`Session ended: ${endLabel(entry.reason)}`}
          meta="The stream ends with the session."
          at={entry.at}
          now={now}
          testId="timeline-ended"
        />
      );
    case "error":
      return (
        <Row
          dot={DOT.error}
          title="The event stream stopped"
          meta={entry.message}
          at={entry.at}
          now={now}
          testId="timeline-error"
        />
      );
  }
}
