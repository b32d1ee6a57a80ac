// The session's last screen, kept for review once it ended (docs/dashboard.md
// "Reviewing an ended session"): the `final_screenshot` stage of the session's end
// (SessionEndBus) takes one JPEG straight from the computer, before viewers and CDP
// clients are let go (a CDP client's own pages may close with it) and before the
// tear-down stops the computer, and stores it with the session's kept screenshots.
import type { SessionEnded, SessionEndSubscriber } from "@/lib/computers/sessions/session-end";
import type { ComputerHandle } from "@/lib/computers/driver";
import { storeFinalScreenshot } from "@/lib/computers/screenshots/screenshots";
import { getLogger } from "@/lib/logger";

/** An end must always complete: a computer that does not answer in this long leaves no last screen. */
export const FINAL_SCREENSHOT_TIMEOUT_MS = 3_000;

/** Takes and stores the last screen of a session that is ending; nothing when it crashed or never started. */
export async function keepFinalScreenshot(handle: ComputerHandle | null | undefined, ended: SessionEnded) {
  // A crashed computer has no screen left to take.
  if (!handle || ended.reason === "crashed") return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), FINAL_SCREENSHOT_TIMEOUT_MS);
  });
  try {
    const shot = await Promise.race([handle.screenshot({ format: "jpeg", quality: 70 }), timeout]);
    if (!shot) {
      getLogger().warn({ id: ended.sessionId }, "no final screenshot: the computer did not answer in time");
      return;
    }
    await storeFinalScreenshot(ended.sessionId, shot.data, shot.mime);
  } catch (err) {
    getLogger().warn({ err, id: ended.sessionId }, "no final screenshot");
  } finally {
    clearTimeout(timer);
  }
}

/** The `final_screenshot` subscriber for the sessions a manager holds (still there while their end is published). */
export function keepFinalScreenshotOf(sessions: {
  get(id: string): { handle: ComputerHandle | null } | undefined;
}): SessionEndSubscriber {
  return (ended) => keepFinalScreenshot(sessions.get(ended.sessionId)?.handle, ended);
}
