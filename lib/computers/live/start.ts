// Boot-time entry for the live view (called by `boot`): registers the upgrade
// handlers "computers-ws" and "computers-vnc" with the custom server. Nothing to stop: viewers end
// with their sessions (ScreencastHub.end from SessionManager.end).
import { vncUpgrade } from "@/lib/computers/live/vnc-gateway";
import { liveViewUpgrade } from "@/lib/computers/live/ws-gateway";
import { upgradeHandlersKey } from "@/lib/process-handles";
import { singleton } from "@/lib/singleton";

export async function startLiveView(): Promise<null> {
  const handlers = singleton(upgradeHandlersKey, () => new Map());
  handlers.set("computers-ws", liveViewUpgrade);
  handlers.set("computers-vnc", vncUpgrade);
  return null;
}
