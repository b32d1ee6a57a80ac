// A session's `endpoints` (extensions.md "Session object additions"): the URLs
// that work for this session, and no others. Each stream capability adds its
// key here when it exists (cdp and screencast/ws/vnc/live_view come with the
// live-view and CDP work); a key is never added before its endpoint works.
import type { ComputerKind } from "@/lib/computers/driver";
import { cdpEnabled } from "@/lib/computers/browser/cdp-enabled";
import { cdpUrl } from "@/lib/computers/browser/cdp-url";

export type SessionEndpoints = Partial<Record<"cdp" | "screencast" | "ws" | "vnc" | "live_view", string>>;

export interface EndpointSubject {
  id: string;
  kind: ComputerKind | string;
  status: string;
  expiresAt: Date;
}

/** The endpoints of a session for a client that reached us at `origin` (see publicOrigin). */
export function sessionEndpoints(session: EndpointSubject, origin: string): SessionEndpoints {
  if (session.status === "terminated") return {};
  const endpoints: SessionEndpoints = {};
  if (session.kind === "browser" && cdpEnabled()) endpoints.cdp = cdpUrl(session, origin);
  return endpoints;
}
