// Boot-time entry for the live view (called by `boot`): registers the upgrade
// handler "computers-ws" with the custom server. Nothing to stop: viewers end
// with their sessions (ScreencastHub.end from SessionManager.end).
import { liveViewUpgrade } from "@/lib/computers/live/ws-gateway";
import { upgradeHandlersKey } from "@/lib/process-handles";
import { singleton } from "@/lib/singleton";

export async function startLiveView(): Promise<null> {
  singleton(upgradeHandlersKey, () => new Map()).set("computers-ws", liveViewUpgrade);
  return null;
}
