import { endLabel } from "@/components/sessions/end-reason";

const TONES: Record<string, string> = {
  ready: "bg-sky-50 text-sky-800 ring-sky-200",
  running: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  terminated: "bg-slate-100 text-slate-600 ring-slate-200",
};

/** A session's status; an ended one says why in words (endLabel), the raw termination_reason in data-reason. */
export function StatusBadge({ status, reason }: { status: string; reason: string | null }) {
  return (
    <span
      className={
        `inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ` +
        `ring-inset ${TONES[status] ?? TONES.terminated}`
      }
      data-testid="session-status"
      data-reason={status === "terminated" ? (reason ?? "") : undefined}
    >
      {status !== "terminated" && <span aria-hidden className="size-1.5 rounded-full bg-current" />}
      {status === "terminated" ? `ended: ${endLabel(reason)}` : status}
    </span>
  );
}
