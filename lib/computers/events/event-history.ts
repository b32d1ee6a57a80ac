// The recent events of each live session, kept so a watcher that arrives late
// (the dashboard's timeline on a fresh visit, an SSE client reconnecting with
// Last-Event-ID) can replay what it missed. Each session's events are numbered
// from 1 in publish order; only the newest EVENT_HISTORY_LIMIT are kept, and a
// session's history is dropped when it ends (docs/watching-sessions.md).
import { AppError } from "@/lib/api/errors";

/** Events kept per live session: enough for a page of timeline, small enough to ignore in memory. */
export const EVENT_HISTORY_LIMIT = 200;

export interface NumberedEvent<E> {
  id: number;
  event: E;
}

interface Ring<E> {
  next: number;
  events: NumberedEvent<E>[];
}

/** Generic over the event type so it needs nothing from the hub (SessionEvents) that owns it. */
export class EventHistory<E> {
  private readonly rings = new Map<string, Ring<E>>();

  constructor(private readonly limit = EVENT_HISTORY_LIMIT) {}

  /** Keeps `event` as the session's newest and returns its number. */
  record(sessionId: string, event: E): number {
    let ring = this.rings.get(sessionId);
    if (!ring) this.rings.set(sessionId, (ring = { next: 1, events: [] }));
    const id = ring.next++;
    ring.events.push({ id, event });
    if (ring.events.length > this.limit) ring.events.splice(0, ring.events.length - this.limit);
    return id;
  }

  /** The kept events numbered after `afterId` (0: all kept), oldest first. */
  since(sessionId: string, afterId: number): NumberedEvent<E>[] {
    return (this.rings.get(sessionId)?.events ?? []).filter((e) => e.id > afterId);
  }

  forget(sessionId: string): void {
    this.rings.delete(sessionId);
  }

  /** Sessions with kept events, for health and leak checks. */
  get sessionCount(): number {
    return this.rings.size;
  }
}

/**
 * Where a replay starts: the `Last-Event-ID` header (what an EventSource sends
 * when it reconnects) wins over `?since=`; neither means no replay. A value that
 * is not a whole number ≥ 0 is a 400 naming it.
 */
export function replayStart(lastEventId: string | null, since: string | null): number | null {
  const [name, value] = lastEventId !== null ? ["Last-Event-ID", lastEventId] : ["since", since];
  if (value === null) return null;
  if (!/^\d{1,15}$/.test(value.trim()))
    throw new AppError("invalid_request", `${name} must be an event number (a whole number ≥ 0), got '${value}'`);
  return Number(value.trim());
}
