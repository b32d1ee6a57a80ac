// An ended session's timeline, kept in the database (docs/watching-sessions.md "The event timeline"): when a
// session ends, the events its SessionEvents history kept are written once, so the dashboard's review of it
// survives a restart and is answered on every node of a cluster. The in-memory history (the last
// ENDED_HISTORIES_KEPT ended sessions) is still read first: it costs no query.
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";
import type { SessionEnded } from "@/lib/computers/sessions/session-end";
import type { EndedRecord, SessionEvent, SessionEvents } from "@/lib/computers/events/session-events";
import type { NumberedEvent } from "@/lib/computers/events/event-history";
import { KEPT_SCREENSHOT_RETENTION_MS } from "@/lib/computers/screenshots/screenshots";

/** A kept timeline's JSON is bounded: its oldest events are dropped past this (exec output can be long). */
export const KEPT_TIMELINE_MAX_BYTES = 1024 * 1024;
/** As long as the session's last screenshot: the review of an ended session shows both. */
export const KEPT_TIMELINE_RETENTION_MS = KEPT_SCREENSHOT_RETENTION_MS;

export interface KeptTimeline {
  events: NumberedEvent<SessionEvent>[];
  ended: EndedRecord;
}

/** The newest events whose JSON fits `maxBytes`, oldest first, as written. */
export function boundedTimeline(events: NumberedEvent<SessionEvent>[], maxBytes = KEPT_TIMELINE_MAX_BYTES): string {
  const parts: string[] = [];
  let bytes = 2;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    const part = JSON.stringify({ id: e.id, event: e.event.event, data: e.event.data });
    bytes += Buffer.byteLength(part) + 1;
    if (bytes > maxBytes) break;
    parts.push(part);
  }
  return `[${parts.reverse().join(",")}]`;
}

/**
 * The session-end subscriber of the `events` stage: subscribers hear `ended`, then the history kept in memory is
 * written to the database (and timelines past their retention are deleted, so the table never grows unbounded).
 */
export function endAndKeepTimeline(events: SessionEvents) {
  return async (ended: SessionEnded): Promise<void> => {
    events.end(ended.sessionId, ended.reason);
    const kept = events.endedHistory(ended.sessionId);
    if (!kept) return;
    const db = getDb();
    const row = {
      events: boundedTimeline(kept.events),
      reason: kept.ended.reason,
      endedAt: new Date(kept.ended.timestamp),
    };
    try {
      await db.sessionTimeline.upsert({
        where: { computerId: ended.sessionId },
        create: { computerId: ended.sessionId, ...row },
        update: row,
      });
      await db.sessionTimeline.deleteMany({
        where: { endedAt: { lt: new Date(Date.now() - KEPT_TIMELINE_RETENTION_MS) } },
      });
    } catch (err) {
      // The review loses the timeline after a restart; the session's end goes on.
      getLogger().warn({ err, id: ended.sessionId }, "could not keep an ended session's timeline");
    }
  };
}

/** An ended session's timeline: from memory when this node still has it, else from the database; null when gone. */
export async function keptTimeline(events: SessionEvents, sessionId: string): Promise<KeptTimeline | null> {
  const inMemory = events.endedHistory(sessionId);
  if (inMemory) return inMemory;
  const row = await getDb().sessionTimeline.findUnique({ where: { computerId: sessionId } });
  if (!row || row.endedAt.getTime() < Date.now() - KEPT_TIMELINE_RETENTION_MS) return null;
  const stored = JSON.parse(row.events) as { id: number; event: SessionEvent["event"]; data: SessionEvent["data"] }[];
  return {
    events: stored.map((e) => ({ id: e.id, event: { event: e.event, data: e.data } as SessionEvent })),
    ended: { reason: row.reason, timestamp: row.endedAt.toISOString() },
  };
}
