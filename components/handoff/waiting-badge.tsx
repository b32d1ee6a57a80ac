"use client";

import Link from "next/link";
import { useWaitingTasks } from "@/components/handoff/use-waiting-tasks";

const plural = (n: number) => `${n} task${n === 1 ? "" : "s"} waiting for a person`;

/** The number of tasks waiting for a person, beside "Tasks" in the navigation (nothing when none waits). */
export function WaitingBadge() {
  const count = useWaitingTasks().data?.count ?? 0;
  if (count === 0) return null;
  return (
    <span
      data-testid="waiting-badge"
      title={plural(count)}
      className={
        "ml-2 inline-flex min-w-5 items-center justify-center rounded-full bg-amber-500 px-1.5 text-xs " +
        "font-semibold text-white"
      }
    >
      <span aria-hidden>{count}</span>
      <span className="sr-only"> ({plural(count)})</span>
    </span>
  );
}

/** On a phone the navigation is a drawer: the header says it too, linking to the task (or the list). */
export function WaitingHeaderLink() {
  const waiting = useWaitingTasks().data;
  if (!waiting || waiting.count === 0) return null;
  const href = waiting.count === 1 ? `/tasks/${waiting.data[0]!.task_id}` : "/tasks";
  return (
    <Link
      href={href}
      data-testid="waiting-header-link"
      className="shrink-0 rounded-full bg-amber-500 px-2 py-0.5 text-xs font-semibold text-white hover:bg-amber-600"
    >
      {waiting.count} waiting
    </Link>
  );
}
