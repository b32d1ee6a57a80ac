// screenshot_url is a capability URL (docs/contract.md): a token in the query,
// an HMAC (app secret) over the session id, the file name and an expiry, lets a
// model upstream or a browser <img> fetch that one file without the API key.
// The key still works, for any file of the caller's organization.
import { AppError } from "@/lib/api/errors";
import { credentialsError } from "@/lib/api/capability-token";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { findOwnedComputer } from "@/lib/computers/sessions/access";
import { readScreenshot, SCREENSHOT_TTL_MS } from "@/lib/computers/screenshots/screenshots";
import {
  screenshotToken,
  verifyScreenshotToken,
  type ScreenshotRef,
} from "@/lib/computers/screenshots/screenshot-token";

export { screenshotToken, verifyScreenshotToken, type ScreenshotRef };

const SCREENSHOT_TOKEN_HELP = {
  message: "Invalid or expired screenshot token (links last 15 minutes and name one file): take a new screenshot",
  detail: "invalid_screenshot_token",
  howToUse: "fetch the screenshot_url exactly as returned",
};

/** The public link of a stored screenshot; the token expires with the file (SCREENSHOT_TTL_MS). */
export function screenshotUrl(baseUrl: string, ref: ScreenshotRef, now = Date.now()): string {
  const token = screenshotToken(ref, now + SCREENSHOT_TTL_MS);
  return `${baseUrl}/computers/${encodeURIComponent(ref.computerId)}/screenshots/${encodeURIComponent(ref.name)}?token=${token}`;
}

/**
 * GET /computers/{id}/screenshots/{name} (a read; not activity): a valid token
 * alone is enough; otherwise the API key of the session's organization.
 */
export async function getScreenshotFile(input: {
  id: string;
  name: string;
  token: string | null;
  authorization: string | null;
}) {
  const ref = { computerId: input.id, name: input.name };
  const tokenValid = input.token !== null && verifyScreenshotToken(ref, input.token);
  if (!tokenValid) {
    if (input.authorization === null) throw credentialsError(input.token, SCREENSHOT_TOKEN_HELP);
    await findOwnedComputer(await authenticateApiKey(input.authorization), input.id);
  }
  const file = await readScreenshot(input.id, input.name);
  if (!file)
    throw new AppError("not_found", `Screenshot '${input.name}' not found (screenshots are kept for 15 minutes)`);
  return file;
}
