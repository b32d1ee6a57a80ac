// GET /computers/{id}/events (docs/contract.md "Streams"): Server-Sent Events
// of what runs on a session — action_request / action_response (with the request_id
// of the ActionResult), exec_output / exec_exit — from the SessionManager's hub
// (SessionEvents). Before the stream starts, an unknown or foreign session is the
// usual JSON 404 and a terminated one a 409; once it started, a session that cannot
// be attached (another host, no running computer, ending) is one `event: error`
// and the end. When the session ends the stream sends `event: ended` {reason} and
// closes. Watching is a read: it does not count as activity. Every event but
// `ended` carries an SSE `id:` (its number in the session's EventHistory); a
// client that sends `Last-Event-ID: n` or `?since=n` first gets the kept events
// numbered after n (`since=0`: all kept), then the live ones, with no gap.
import { isAppError } from "@/lib/api/errors";
import { sseStream } from "@/lib/api/sse";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { assertServedHere, findOwnedComputer } from "@/lib/computers/sessions/access";
import { terminatedError } from "@/lib/computers/actions/failures";
import { getSessionManager } from "@/lib/computers/registry";
import { keptTimeline } from "@/lib/computers/events/kept-timelines";
import type { SessionEvent, SessionEvents } from "@/lib/computers/events/session-events";

export async function openSessionEvents(input: {
  principal: Pick<ApiPrincipal, "organizationId">;
  id: string;
  signal: AbortSignal;
  /** From replayStart: replay the kept events numbered after this one first. */
  replayAfter?: number | null;
  /** An ended session answers its kept events and `ended` instead of a 409 (the dashboard's review of it). */
  reviewEnded?: boolean;
}): Promise<ReadableStream<Uint8Array>> {
  const row = await findOwnedComputer(input.principal, input.id);
  if (row.status === "terminated" && input.reviewEnded) return endedSessionEvents(row.id, input.replayAfter ?? 0);
  if (row.status === "terminated") throw terminatedError(row);
  return sseStream((channel) => {
    const manager = getSessionManager();
    try {
      assertServedHere(row);
    } catch (err) {
      channel.send("error", {
        code: isAppError(err) ? err.code : "internal",
        message: err instanceof Error ? err.message : String(err),
      });
      return channel.close();
    }
    const live = manager.get(row.id);
    if (!live || manager.isEnding(live)) {
      channel.send("error", { code: "conflict", message: `Session '${row.id}' has ended` });
      return channel.close();
    }
    // Replay and subscribe in one synchronous step, so no event falls between them.
    const replay = input.replayAfter == null ? [] : manager.events.history.since(row.id, input.replayAfter);
    const unsubscribe = manager.events.subscribe(row.id, (event: SessionEvent, id?: number) => {
      channel.send(event.event, event.data, id);
      if (event.event === "ended") channel.close();
    });
    channel.comment("subscribed");
    for (const kept of replay) channel.send(kept.event.event, kept.event.data, kept.id);
    return unsubscribe;
  }, input.signal);
}

/**
 * An ended session's kept timeline (keptTimeline: this node's memory, else the database), then `ended`
 * {reason, timestamp}, then the end of the stream. Nothing kept (past its retention, or it crashed before its
 * end was published): `ended` with `history: "not_kept"`.
 */
async function endedSessionEvents(sessionId: string, afterId: number): Promise<ReadableStream<Uint8Array>> {
  const kept = await keptTimeline(getSessionManager().events, sessionId);
  return sseStream((channel) => {
    for (const e of kept?.events ?? []) if (e.id > afterId) channel.send(e.event.event, e.event.data, e.id);
    channel.send("ended", kept ? { ...kept.ended } : { reason: "ended", history: "not_kept" });
    channel.close();
  });
}

/** The `navigation_error` of a tab operation's result (new_tab with a url), bare or inside an ActionResult. */
function navigationErrorOf(result: unknown): string | undefined {
  if (!result || typeof result !== "object") return undefined;
  const own = (result as { navigation_error?: unknown }).navigation_error;
  if (typeof own === "string") return own;
  const inner = (result as { result?: { navigation_error?: unknown } }).result?.navigation_error;
  return typeof inner === "string" ? inner : undefined;
}

/**
 * Action request, run, response on the session's events; a thrown failure is published as status "error" and rethrown.
 */
export async function withActionEvents<T>(
  events: SessionEvents,
  call: { sessionId: string; requestId: string; action: unknown },
  run: () => Promise<T>,
): Promise<T> {
  const { sessionId, requestId } = call;
  events.publish(sessionId, {
    event: "action_request",
    data: { request_id: requestId, action: call.action, timestamp: new Date().toISOString() },
  });
  const respond = (status: string, errorMessage?: string) =>
    events.publish(sessionId, {
      event: "action_response",
      data: {
        request_id: requestId,
        status,
        ...(errorMessage ? { error_message: errorMessage } : {}),
        timestamp: new Date().toISOString(),
      },
    });
  try {
    const result = await run();
    const outcome = result as { status?: unknown; error_message?: unknown };
    const navigationError = navigationErrorOf(result);
    if (outcome?.status === "error")
      respond("error", typeof outcome.error_message === "string" ? outcome.error_message : undefined);
    // A tab opened at a URL that failed or was refused is still a tab (the answer is a success), but
    // the navigation did not happen: the timeline says so, with the reason.
    else if (navigationError) respond("error", navigationError);
    else respond("success");
    return result;
  } catch (err) {
    respond("error", isAppError(err) ? err.message : "internal error");
    throw err;
  }
}
