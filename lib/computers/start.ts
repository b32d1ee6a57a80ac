// Boot-time entry for sessions (called from lib/boot.ts): reconcile rows left by
// a previous process, reap its Chromiums, warm the pool, start the reaper, and
// register the shutdown that ends every session cleanly.
import { onShutdown } from "@/lib/boot";
import { getSessionManager } from "@/lib/computers/registry";

export async function startComputers(): Promise<void> {
  const manager = getSessionManager();
  onShutdown("computers", () => manager.shutdown());
  await manager.boot();
}
