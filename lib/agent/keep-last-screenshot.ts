// A finished task's last step screenshot stays viewable while the task is listed
// (docs/agent-tasks.md "The task object"): step screenshots are swept after
// SCREENSHOT_TTL_MS like any other, so at its end the task keeps a copy of its
// last one among the session's kept screenshots (KEPT_SCREENSHOT_RETENTION_MS).
import { getDb } from "@/lib/db";
import { keepScreenshot } from "@/lib/computers/screenshots";
import { getLogger } from "@/lib/logger";

export async function keepLastStepScreenshot(input: { taskId: string; computerId: string }): Promise<void> {
  try {
    const last = await getDb().agentTaskStep.findFirst({
      where: { taskId: input.taskId, screenshot: { not: null } },
      orderBy: { index: "desc" },
      select: { screenshot: true },
    });
    if (last?.screenshot) await keepScreenshot(input.computerId, last.screenshot);
  } catch (err) {
    getLogger().warn({ err, taskId: input.taskId }, "the task's last screenshot was not kept");
  }
}
