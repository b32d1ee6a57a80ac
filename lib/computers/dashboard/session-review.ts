// What an ended session leaves for review on its page (docs/dashboard.md "Reviewing
// an ended session"): its last screen, kept by the `final_screenshot` stage of its end
// (keepFinalScreenshot) on the node that ran it, for the member's organization.
import { AppError } from "@/lib/api/errors";
import type { Member } from "@/lib/auth/member";
import { findOwnedComputer } from "@/lib/computers/sessions/access";
import { findFinalScreenshot, readFinalScreenshot } from "@/lib/computers/screenshots/screenshots";

/** On GET /api/sessions/{id}: where the page finds the last screen, and when it was taken. */
export interface FinalScreenshotRef {
  url: string;
  taken_at: string;
}

export async function finalScreenshotRef(id: string): Promise<FinalScreenshotRef | null> {
  const found = await findFinalScreenshot(id);
  if (!found) return null;
  // The time in the URL makes a replaced shot a new resource for the browser's cache.
  const url = `/api/sessions/${encodeURIComponent(id)}/final-screenshot?t=${found.takenAt.getTime()}`;
  return { url, taken_at: found.takenAt.toISOString() };
}

/** GET /api/sessions/{id}/final-screenshot: the bytes, or a 404 naming why there are none. */
export async function readFinalScreenshotAs(member: Member, id: string) {
  const owned = await findOwnedComputer(member, id);
  const shot = await readFinalScreenshot(owned.id);
  if (!shot)
    throw new AppError(
      "not_found",
      `Session '${owned.id}' has no last screenshot: it is taken when a session ends (not after a crash) and ` +
        `kept 7 days`,
    );
  return shot;
}
