// Cabin's own screenshot links (`screenshotUrl`, docs/computer-use.md) are
// capability URLs on whatever host Cabin was reached at: often a private
// address (127.0.0.1, a cluster-internal name) no hosted model provider can
// fetch. They are recognised by their path and a token that verifies, never by
// host, so a link built for any host name Cabin is served under is read here,
// in process, from the screenshot store. The model service inlines them through the reader registered here
// (`ownScreenshotImages`, registered at start-up by lib/boot.ts), so it imports nothing of the sessions.
import { readScreenshot } from "@/lib/computers/screenshots/screenshots";
import { verifyScreenshotToken, type ScreenshotRef } from "@/lib/computers/screenshots/screenshot-token";

/** `/computers/{id}/screenshots/{name}` at the end of the path (a proxy may add a prefix). */
const SCREENSHOT_PATH = /\/computers\/([^/]+)\/screenshots\/([^/]+)$/;

/**
 * The screenshot a URL names, when it is one of Cabin's own links with a valid token; else null (passed on as given).
 */
export function ownScreenshotRef(url: string): ScreenshotRef | null {
  if (!/^https?:\/\//i.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const match = SCREENSHOT_PATH.exec(parsed.pathname);
  const token = parsed.searchParams.get("token");
  if (!match || !token) return null;
  let ref: ScreenshotRef;
  try {
    ref = { computerId: decodeURIComponent(match[1]!), name: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
  return verifyScreenshotToken(ref, token) ? ref : null;
}

/** Cabin's own screenshot links as the model service reads them (its `OwnImages` port). */
export const ownScreenshotImages = {
  keyOf(url: string): string | null {
    const ref = ownScreenshotRef(url);
    return ref ? `shot:${ref.computerId}/${ref.name}` : null;
  },
  /** The stored file's bytes, or null once it expired (screenshots are kept 15 minutes) or is not ours. */
  async read(url: string): Promise<{ data: Buffer; mime: string } | null> {
    const ref = ownScreenshotRef(url);
    return ref ? readScreenshot(ref.computerId, ref.name) : null;
  },
};
