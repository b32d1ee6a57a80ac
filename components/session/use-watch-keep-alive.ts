"use client";

import { useEffect } from "react";
import { fetchJson } from "@/lib/fetch-json";

/** How often a watching page keeps the session alive: a third of its idle timeout, between 2 s and 30 s. */
export function keepAliveEveryMs(inactivityTimeoutSeconds: number): number {
  return Math.min(30_000, Math.max(2_000, (inactivityTimeoutSeconds * 1000) / 3));
}

/**
 * Watching keeps a session alive (docs/watching-sessions.md): while this page
 * shows a live session in a visible tab, it calls the member keepalive every
 * keepAliveEveryMs, so the idle deadline never comes near. A hidden tab sends
 * nothing (the session idles out as it would unwatched); becoming visible
 * sends one at once. API clients' semantics do not change: this is the same
 * POST /api/sessions/{id}/keepalive a person can press.
 */
export function useWatchKeepAlive(
  session: { id: string; auto_kill: boolean; idle_timeout_seconds: number },
  live: boolean,
) {
  const { id, auto_kill: autoKill, idle_timeout_seconds: timeout } = session;
  useEffect(() => {
    if (!live || !autoKill) return;
    const send = () => {
      if (document.visibilityState !== "visible") return;
      // A failure (the session just ended, a network blip) is left to the next beat and the page's own polling.
      void fetchJson(`/api/sessions/${encodeURIComponent(id)}/keepalive`, { method: "POST" }).catch(() => {});
    };
    send();
    const timer = setInterval(send, keepAliveEveryMs(timeout));
    document.addEventListener("visibilitychange", send);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", send);
    };
  }, [id, autoKill, timeout, live]);
}
