// Which agent task drives each session of a list or page: a session started
// by a task (or handed to one with computer_id) shows it with a link, rather
// than "by dashboard" (docs/dashboard.md, "Sessions"). Read straight from the
// task rows, so this layer needs nothing of lib/agent.
import { getDb } from "@/lib/db";

/** The task a session belongs to: the live one if any, else the latest. */
export interface SessionTask {
  id: string;
  status: string;
  instruction: string;
}

const LIVE = new Set(["queued", "running", "paused", "awaiting_human"]);

export async function tasksOfSessions(organizationId: string, ids: string[]): Promise<Map<string, SessionTask>> {
  const found = new Map<string, SessionTask>();
  if (ids.length === 0) return found;
  const rows = await getDb().agentTask.findMany({
    where: { organizationId, computerId: { in: ids } },
    select: { id: true, status: true, instruction: true, computerId: true },
    orderBy: { createdAt: "desc" },
  });
  for (const row of rows) {
    const id = row.computerId!;
    const known = found.get(id);
    if (!known || (!LIVE.has(known.status) && LIVE.has(row.status)))
      found.set(id, { id: row.id, status: row.status, instruction: row.instruction });
  }
  return found;
}
