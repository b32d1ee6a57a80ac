"use client";

import { GiveBackForm } from "@/components/handoff/give-back-form";
import { useTaskControl, type TaskObject } from "@/components/tasks/use-tasks";

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** The task's earlier hand-offs: why it waited, and who gave it back with what note. */
function HandoffHistory({ task }: { task: TaskObject }) {
  const closed = task.handoffs.filter((h) => h.resumed_at !== null);
  if (closed.length === 0) return null;
  return (
    <ul className="space-y-1 text-xs text-slate-700" aria-label="Hand-offs to a person" data-testid="handoff-history">
      {closed.map((h) => (
        <li key={h.id} className="rounded-md bg-slate-50 px-3 py-1.5">
          <span className="font-medium">Waited for a person</span> ({time(h.requested_at)}): {h.reason}
          <br />
          <span className="font-medium">Resumed by {h.resumed_by}</span> ({time(h.resumed_at!)})
          {h.note ? `: ${h.note}` : ""}
        </li>
      ))}
    </ul>
  );
}

/**
 * A task waiting for a person (docs/agent-tasks.md "Hand-off to a person"): why, a way to take control
 * (the take-over page: the live view with control), and the form that gives control back. Below it,
 * the task's earlier hand-offs.
 */
export function HandoffBanner({ task }: { task: TaskObject }) {
  const control = useTaskControl(task.task_id);
  const open = task.status === "awaiting_human" ? task.handoff : null;
  return (
    <div className="space-y-2">
      {open && (
        <section
          aria-labelledby="handoff-title"
          data-testid="handoff-banner"
          className="space-y-3 rounded-lg border-2 border-amber-400 bg-amber-50 px-4 py-3"
        >
          <div className="space-y-1">
            <h2 id="handoff-title" className="text-sm font-semibold text-amber-950">
              Waiting for a person: <span data-testid="handoff-reason">{open.reason}</span>
            </h2>
            <p className="text-xs text-amber-900">
              Asked by {open.requested_by} at {time(open.requested_at)}. The agent makes no model calls until someone
              gives control back.
            </p>
          </div>
          <a
            href={open.live_view_url}
            data-testid="take-control-link"
            className={
              "inline-flex rounded-md bg-amber-600 px-3 py-2 text-sm font-medium text-white shadow-sm " +
              "hover:bg-amber-700 focus-visible:outline-2 focus-visible:outline-offset-2 " +
              "focus-visible:outline-amber-600"
            }
          >
            Open live view / Take control
          </a>
          <GiveBackForm
            id="handoff-note"
            pending={control.isPending}
            error={control.error?.message ?? null}
            onGiveBack={(note) => control.mutate({ action: "resume", ...(note ? { note } : {}) })}
          />
        </section>
      )}
      <HandoffHistory task={task} />
    </div>
  );
}
