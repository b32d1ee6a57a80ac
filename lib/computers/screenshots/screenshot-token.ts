// The capability token of a screenshot link (docs/contract.md): an HMAC (app
// secret) over the session id, the file name and an expiry. Its own small
// module, so code that only checks a link (the model gateway inlining Cabin's
// own screenshots, lib/models/images) does not load the session domain.
import { signCapability, verifyCapability, type Capability } from "@/lib/api/capability-token";

export interface ScreenshotRef {
  computerId: string;
  name: string;
}

const capability = (ref: ScreenshotRef): Capability => ({
  purpose: "cabin.screenshot-url.v1",
  subject: [ref.computerId, ref.name],
});

/** A token valid for exactly this file until the expiry (see signCapability). */
export function screenshotToken(ref: ScreenshotRef, expiresAtMs: number, secret?: string): string {
  return signCapability(capability(ref), expiresAtMs, secret);
}

export function verifyScreenshotToken(ref: ScreenshotRef, token: string, now = Date.now(), secret?: string): boolean {
  return verifyCapability(capability(ref), token, now, secret);
}
