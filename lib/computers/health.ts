// computersHealth(): what /api/health reports for sessions. Counts only, no ids:
// live sessions, open /events streams, and for browsers the pool's processes, contexts and pages, so
// operators (and leak tests) can see that ended sessions left nothing behind.
import { liveViewStats } from "@/lib/computers/live/hub";
import { describeProxy } from "@/lib/computers/egress/proxy";
import { getSessionManager } from "@/lib/computers/registry";
import { getEnv } from "@/lib/env";

export function computersHealth() {
  const manager = getSessionManager();
  const browser = manager.driverFor("browser")?.health() ?? { ok: false, message: "browser driver missing" };
  const desktop = manager.driverFor("desktop")?.health() ?? null;
  return {
    ok: browser.ok,
    required: true,
    ...(browser.message ? { message: browser.message } : {}),
    live_sessions: manager.liveCount,
    // Ended sessions still being torn down (DELETE answers before that finishes).
    ending_sessions: manager.endingCount,
    event_subscribers: manager.events.subscriberCount,
    // Live view: captures running, viewers attached, frames captured since start.
    live_view: { ...liveViewStats() },
    advanced_proxy: describeProxy(getEnv().ADVANCED_PROXY_URL) !== null,
    browser,
    ...(desktop ? { desktop } : {}),
  };
}
