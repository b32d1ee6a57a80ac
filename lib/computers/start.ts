// Boot-time entry for sessions (called by `boot`): reconcile rows left by a
// previous process, reap its Chromiums, warm the pool, start the reaper, offer
// the CDP gateway to the custom server (`registerCdpGateway`), start replays'
// bookkeeping (`startReplays`); the
// returned stop hook ends every session cleanly.
import { registerOrganizationResources } from "@/lib/auth/organization-resources";
import { registerCdpGateway } from "@/lib/computers/browser/cdp-gateway";
import { startFileReaper } from "@/lib/computers/session-files";
import { finishReplays, startReplays } from "@/lib/computers/replays/replays";
import { sessionResources } from "@/lib/computers/sessions/organization-deletion";
import { getSessionManager } from "@/lib/computers/registry";
import { getLogger } from "@/lib/logger";

export async function startComputers(): Promise<() => Promise<void>> {
  const manager = getSessionManager();
  registerCdpGateway();
  registerOrganizationResources("sessions", sessionResources);
  try {
    await manager.boot();
  } catch (err) {
    // Requests still create sessions after a failed warm-up, so the stop hook is returned regardless.
    getLogger().error({ err, part: "computers" }, "start-up of sessions failed");
  }
  const stopFileReaper = startFileReaper();
  const stopReplays = startReplays();
  return async () => {
    stopFileReaper();
    await manager.shutdown();
    // The sessions' ends stopped their recordings: their MP4s are finished before the process exits.
    await finishReplays();
    stopReplays();
  };
}
