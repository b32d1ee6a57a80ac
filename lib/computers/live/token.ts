// The signed token in a session's live-view URLs (endpoints.screencast, .ws,
// .vnc): it grants watching and driving that one session, for clients that
// cannot send an Authorization header (EventSource, browser WebSocket, noVNC).
// It expires with the session (expires_at), so it is never valid for longer
// than the session can live; the API key works too.
import { signCapability, verifyCapability, type Capability } from "@/lib/api/capability-token";

const capability = (sessionId: string): Capability => ({ purpose: "cabin.live-view.v1", subject: [sessionId] });

export function liveViewToken(sessionId: string, expiresAtMs: number, secret?: string): string {
  return signCapability(capability(sessionId), expiresAtMs, secret);
}

export function verifyLiveViewToken(sessionId: string, token: string, now = Date.now(), secret?: string): boolean {
  return verifyCapability(capability(sessionId), token, now, secret);
}
