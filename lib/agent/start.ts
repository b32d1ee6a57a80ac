// Agent tasks at process start and stop (lib/boot.ts). A task's loop lives in
// this process, so a restart cannot resume it: at start-up every task this
// host left queued, running or paused becomes `failed` with end_reason
// `server_restart` (its session was ended by the computers' own start-up
// reconciliation). At a clean shutdown, loops are interrupted first, store
// `failed` / `server_shutdown`, and end the sessions they made.
import { failLeftoverTasks } from "@/lib/agent/store";
import { getTaskRunner } from "@/lib/agent/runner";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

export async function startAgentTasks(): Promise<() => Promise<void>> {
  const left = await failLeftoverTasks({
    hostId: getEnv().HOST_ID,
    message: "The server restarted while this task ran; its loop and its session ended with the old process",
  });
  if (left.length)
    getLogger().warn({ tasks: left.map((t) => t.id) }, "agent tasks left by the previous process marked failed");
  return () => getTaskRunner().stopAll();
}
