// GET /api/sessions/changes: the session list's push. Each open list gets an
// SSE `changed` event soon after a session of its organization starts, changes
// status or ends, and refetches then (docs/dashboard.md, "Sessions"). The
// signal is read from the database, not from this process's session manager,
// so a session started or ended on another node of a cluster is seen too; one
// watcher per organization serves all of its open lists, and stops with the last.
import type { Member } from "@/lib/auth/member";
import { sseStream } from "@/lib/api/sse";
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";
import { singleton, singletonKey } from "@/lib/singleton";

/**
 * How often a watched organization's sessions are compared (the list learns of a change within this, plus a round
 * trip).
 */
export const SESSION_LIST_WATCH_MS = 150;

interface Watcher {
  listeners: Set<() => void>;
  timer: NodeJS.Timeout;
  signature: string | null;
}

const watchersKey = singletonKey<Map<string, Watcher>>("session-list-watchers");
const watchers = () => singleton(watchersKey, () => new Map<string, Watcher>());

/** Counts per status and the latest start and end: any start, status change or end changes it. */
async function signatureOf(organizationId: string): Promise<string> {
  const groups = await getDb().computer.groupBy({
    by: ["status"],
    where: { organizationId },
    _count: { _all: true },
    _max: { createdAt: true, terminatedAt: true },
  });
  return groups
    .map((g) => `${g.status}:${g._count._all}:${g._max.createdAt?.getTime()}:${g._max.terminatedAt?.getTime()}`)
    .sort()
    .join("|");
}

function watch(organizationId: string, listener: () => void): () => void {
  const all = watchers();
  let watcher = all.get(organizationId);
  if (!watcher) {
    const created: Watcher = { listeners: new Set(), signature: null, timer: undefined as unknown as NodeJS.Timeout };
    let reading = false;
    created.timer = setInterval(() => {
      if (reading) return;
      reading = true;
      signatureOf(organizationId)
        .then((signature) => {
          const changed = created.signature !== null && signature !== created.signature;
          created.signature = signature;
          if (changed) for (const l of created.listeners) l();
        })
        .catch((err) => getLogger().warn({ err, organizationId }, "session list watch failed"))
        .finally(() => {
          reading = false;
        });
    }, SESSION_LIST_WATCH_MS);
    created.timer.unref();
    all.set(organizationId, created);
    watcher = created;
  }
  const current = watcher;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size === 0) {
      clearInterval(current.timer);
      all.delete(organizationId);
    }
  };
}

/** The SSE body: `ready` at once, then `changed` after each change of the member's organization's sessions. */
export function sessionListChangesAs(member: Member, signal: AbortSignal): ReadableStream<Uint8Array> {
  return sseStream((channel) => {
    channel.send("ready", {});
    return watch(member.organizationId, () => {
      // A list that has not read the last `changed` will refetch anyway: no queue of them.
      if (!channel.backlogged()) channel.send("changed", { at: new Date().toISOString() });
    });
  }, signal);
}
