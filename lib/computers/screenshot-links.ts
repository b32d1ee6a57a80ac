// screenshot_url is a capability URL (extensions.md): a token in the query,
// an HMAC (app secret) over the session id, the file name and an expiry, lets a
// model upstream or a browser <img> fetch that one file without the API key.
// The key still works, for any file of the caller's organization.
import { createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/api/errors";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { getAppSecret } from "@/lib/secrets";
import { findOwnedComputer } from "@/lib/computers/access";
import { readScreenshot, SCREENSHOT_TTL_MS } from "@/lib/computers/screenshots";

// Bound into every MAC so a token made for another purpose with the same secret never verifies here.
const PURPOSE = "cabin.screenshot-url.v1";
const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface ScreenshotRef {
  computerId: string;
  name: string;
}

function mac(ref: ScreenshotRef, expiresAtSeconds: number, secret: string): Buffer {
  return createHmac("sha256", secret).update(`${PURPOSE}\0${ref.computerId}\0${ref.name}\0${expiresAtSeconds}`).digest();
}

/** `<expiry in Unix seconds>.<base64url HMAC-SHA256>`, valid for exactly this file until the expiry. */
export function screenshotToken(ref: ScreenshotRef, expiresAtMs: number, secret = getAppSecret()): string {
  const expiresAtSeconds = Math.ceil(expiresAtMs / 1000);
  return `${expiresAtSeconds}.${mac(ref, expiresAtSeconds, secret).toString("base64url")}`;
}

/** True when `token` was made by screenshotToken for this very file and has not expired. */
export function verifyScreenshotToken(ref: ScreenshotRef, token: string, now = Date.now(), secret = getAppSecret()): boolean {
  const match = TOKEN.exec(token);
  if (!match) return false;
  const expiresAtSeconds = Number(match[1]);
  if (expiresAtSeconds * 1000 <= now) return false;
  const given = Buffer.from(match[2], "base64url");
  const expected = mac(ref, expiresAtSeconds, secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The public link of a stored screenshot; the token expires with the file (SCREENSHOT_TTL_MS). */
export function screenshotUrl(baseUrl: string, ref: ScreenshotRef, now = Date.now()): string {
  const token = screenshotToken(ref, now + SCREENSHOT_TTL_MS);
  return `${baseUrl}/computers/${encodeURIComponent(ref.computerId)}/screenshots/${encodeURIComponent(ref.name)}?token=${token}`;
}

/**
 * GET /computers/{id}/screenshots/{name} (a read; not activity): a valid token
 * alone is enough; otherwise the API key of the session's organization.
 */
export async function getScreenshotFile(input: { id: string; name: string; token: string | null; authorization: string | null }) {
  const ref = { computerId: input.id, name: input.name };
  const tokenValid = input.token !== null && verifyScreenshotToken(ref, input.token);
  if (!tokenValid) {
    if (input.authorization === null) {
      throw new AppError(
        "unauthorized",
        input.token === null
          ? "Missing API key or token: fetch the screenshot_url exactly as returned, or send 'Authorization: Bearer <API_KEY>'"
          : "Invalid or expired screenshot token (links last 15 minutes and name one file): take a new screenshot, or send 'Authorization: Bearer <API_KEY>'",
        { detail: input.token === null ? "invalid_api_key" : "invalid_screenshot_token" },
      );
    }
    await findOwnedComputer(await authenticateApiKey(input.authorization), input.id);
  }
  const file = await readScreenshot(input.id, input.name);
  if (!file) throw new AppError("not_found", `Screenshot '${input.name}' not found (screenshots are kept for 15 minutes)`);
  return file;
}
