const TONES: Record<string, string> = {
  queued: "bg-sky-50 text-sky-800 ring-sky-200",
  running: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  paused: "bg-amber-50 text-amber-800 ring-amber-200",
  awaiting_human: "bg-amber-400 text-amber-950 ring-amber-500",
  completed: "bg-slate-100 text-slate-700 ring-slate-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
  stopped: "bg-slate-100 text-slate-600 ring-slate-200",
};

/**
 * Why an ended task ended, in words (end_reason, docs/agent-tasks.md), or null when the status says it all:
 * "completed" needs no "done", "stopped" no "stopped"; running out of steps is not the same as finishing.
 */
export function endReasonLabel(status: string, reason: string | null): string | null {
  if (!reason || reason === status || (status === "completed" && reason === "done")) return null;
  if (reason === "max_steps") return "steps ran out";
  return reason.replaceAll("_", " ");
}

/** A task's status; an ended one also says why (end_reason), unless the reason only repeats it. */
export function TaskStatus({ status, reason }: { status: string; reason: string | null }) {
  const live = status === "running" || status === "queued";
  const why = live || status === "paused" || status === "awaiting_human" ? null : endReasonLabel(status, reason);
  return (
    <span
      data-testid="task-status"
      data-status={status}
      className={
        `inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ` +
        `ring-inset ${TONES[status] ?? TONES.stopped}`
      }
    >
      {live && <span aria-hidden className="size-1.5 rounded-full bg-current" />}
      {status === "awaiting_human" ? "waiting for a person" : status}
      {why ? `: ${why}` : ""}
    </span>
  );
}

export const formatCost = (usd: number) =>
  usd === 0 ? "$0" : usd < 0.01 ? `$${usd.toFixed(6)}` : `$${usd.toFixed(4)}`;
