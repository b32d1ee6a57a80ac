// Cabin's own screenshot links (`screenshotUrl`, docs/computer-use.md) are
// capability URLs on whatever host Cabin was reached at: often a private
// address (127.0.0.1, a cluster-internal name) no hosted model provider can
// fetch. They are recognised by their path and a token that verifies, never by
// host, so a link built for any host name Cabin is served under is read here,
// in process, from the screenshot store.
import { verifyScreenshotToken, type ScreenshotRef, readScreenshot } from "@/lib/computers/screenshots";

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

/** The stored file's bytes, or null once it expired (screenshots are kept 15 minutes). */
export function readOwnScreenshot(ref: ScreenshotRef) {
  return readScreenshot(ref.computerId, ref.name);
}
