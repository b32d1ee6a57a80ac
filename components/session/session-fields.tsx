import type { SessionView } from "@/components/session/use-session";
import { formatTime } from "@/components/ui/format";

function seconds(value: number): string {
  if (value % 3600 === 0) return `${value / 3600} h`;
  if (value % 60 === 0) return `${value / 60} min`;
  return `${value} s`;
}

/** The session's settings and facts, as a compact definition list. */
export function SessionFields({ session }: { session: SessionView }) {
  const rows: [string, string][] = [
    ["Kind", session.kind],
    ["Context id", session.context_id ?? "—"],
    ["Created", formatTime(session.created_at)],
    [
      "Created by",
      session.created_by_key
        ? `${session.created_by_key.name} (${session.created_by_key.prefix}…)`
        : session.created_by_member
          ? `${session.created_by_member.name || session.created_by_member.email} (dashboard)`
          : "dashboard",
    ],
    ["Persistent", session.persistent ? "yes" : "no"],
    ["Auto-kill when idle", session.auto_kill ? `yes, after ${seconds(session.idle_timeout_seconds)}` : "no"],
    ["Max lifetime", seconds(session.max_lifetime_seconds)],
    ["Display", `${session.viewport.width} × ${session.viewport.height}`],
    ["Last activity", formatTime(session.last_activity_at)],
  ];
  if (session.environment_id) rows.push(["From environment", session.environment_id]);
  if (session.terminated_at) rows.push(["Ended", formatTime(session.terminated_at)]);
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm" data-testid="session-fields">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500">{label}</dt>
          <dd className="break-words text-slate-800">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
