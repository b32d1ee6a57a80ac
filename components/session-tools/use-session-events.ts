"use client";

import { useEffect, useReducer, useRef, useState } from "react";
import { applyTimelineEvent, type TimelineEntry } from "@/components/session-tools/timeline-model";

const EVENT_NAMES = [
  "action_request",
  "action_response",
  "exec_output",
  "exec_exit",
  "live_input",
  "ended",
  "error",
] as const;

export type StreamState = "connecting" | "open" | "closed";

function reducer(entries: TimelineEntry[], event: { event: string; data: Record<string, unknown> }) {
  return applyTimelineEvent(entries, event, Date.now());
}

/**
 * The session's /events as a timeline. The stream ends with the session
 * (`event: ended`); it is closed then rather than left to EventSource's
 * reconnects, which a terminated session would answer with a 409.
 */
export function useSessionEvents(sessionId: string, enabled: boolean, onEnded: (reason: string) => void) {
  const [entries, dispatch] = useReducer(reducer, []);
  const [state, setState] = useState<StreamState>(enabled ? "connecting" : "closed");
  const endedRef = useRef(onEnded);
  endedRef.current = onEnded;

  useEffect(() => {
    if (!enabled) {
      setState("closed");
      return;
    }
    setState("connecting");
    // since=0: the server's kept events first (the timeline has history); on a reconnect
    // EventSource sends Last-Event-ID, which wins, so nothing is shown twice.
    const source = new EventSource(`/api/sessions/${encodeURIComponent(sessionId)}/events?since=0`);
    source.onopen = () => setState("open");
    source.onerror = () => {
      // EventSource retries a dropped connection by itself; a refused one (4xx) is CLOSED.
      setState(source.readyState === EventSource.CLOSED ? "closed" : "connecting");
    };
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (message) => {
        const raw = (message as MessageEvent).data;
        // A connection error is also dispatched as "error", without data.
        if (typeof raw !== "string") return;
        let data: Record<string, unknown>;
        try {
          data = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          return;
        }
        dispatch({ event: name, data });
        if (name === "ended" || name === "error") {
          source.close();
          setState("closed");
          if (name === "ended") endedRef.current(typeof data.reason === "string" ? data.reason : "ended");
        }
      });
    }
    return () => source.close();
  }, [sessionId, enabled]);

  return { entries, state };
}
