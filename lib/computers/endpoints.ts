// A session's `endpoints` (docs/contract.md "Sessions"): the URLs
// that work for this session, and no others. Each stream capability adds its
// key here when it exists; a key is never added before its endpoint works.
// screencast and ws (both kinds) and vnc
// (desktops, when the host has x11vnc) carry a live-view token (liveViewToken)
// so that clients without headers can use them as given. live_view is the
// dashboard's page of the session (it asks for a dashboard sign-in).
import type { ComputerKind } from "@/lib/computers/driver";
import { cdpEnabled } from "@/lib/computers/browser/cdp-enabled";
import { cdpUrl } from "@/lib/computers/browser/cdp-url";
import { ffmpegPath, x11vncPath } from "@/lib/computers/desktop/live-tools";
import { liveViewToken } from "@/lib/computers/live/token";

export type SessionEndpoints = Partial<Record<"cdp" | "screencast" | "ws" | "vnc" | "live_view", string>>;

export interface EndpointSubject {
  id: string;
  kind: ComputerKind | string;
  status: string;
  expiresAt: Date;
}

/** ws:// or wss:// for an http(s) origin. */
export function webSocketOrigin(origin: string): string {
  return origin.replace(/^http/, "ws");
}

/**
 * A session's live view as a WebSocket URL whose token lasts until `untilMs` (a take-over link's life):
 * built here, so a client of the domain (the agent's take-over page) never spells Cabin's paths.
 */
export function liveViewSocketUrl(sessionId: string, origin: string, untilMs: number): string {
  const token = liveViewToken(sessionId, untilMs);
  return `${webSocketOrigin(origin)}/computers/${encodeURIComponent(sessionId)}/ws?token=${token}`;
}

/** The endpoints of a session for a client that reached us at `origin` (see publicOrigin). */
export function sessionEndpoints(session: EndpointSubject, origin: string): SessionEndpoints {
  if (session.status === "terminated") return {};
  const path = `/computers/${encodeURIComponent(session.id)}`;
  const token = liveViewToken(session.id, session.expiresAt.getTime());
  const endpoints: SessionEndpoints = {
    live_view: `${origin}/sessions/${encodeURIComponent(session.id)}`,
    screencast: `${origin}${path}/screencast?token=${token}`,
    ws: `${webSocketOrigin(origin)}${path}/ws?token=${token}`,
  };
  if (session.kind === "browser" && cdpEnabled()) endpoints.cdp = cdpUrl(session, origin);
  // A desktop's frames come from the host's ffmpeg (desktopScreencast); without it there is no live view.
  if (session.kind === "desktop" && !ffmpegPath()) return {};
  if (session.kind === "desktop" && x11vncPath())
    endpoints.vnc = `${webSocketOrigin(origin)}${path}/vnc?token=${token}`;
  return endpoints;
}
