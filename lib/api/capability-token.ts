// Capability tokens: `<expiry in Unix seconds>.<base64url HMAC-SHA256>` over a
// purpose, the subject it grants (a session id, a file name…) and the expiry,
// keyed by the app secret. Whoever holds one may do exactly that one thing until
// it expires, without the API key: screenshot links, and the WebSocket and
// stream URLs of a session's `endpoints` for clients that cannot send headers.
import { createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/api/errors";
import { getAppSecret } from "@/lib/secrets";

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** What a token grants: a versioned purpose (bound into the MAC) and its subject. */
export interface Capability {
  purpose: string;
  subject: readonly string[];
}

function mac(capability: Capability, expiresAtSeconds: number, secret: string): Buffer {
  const text = [capability.purpose, ...capability.subject, String(expiresAtSeconds)].join("\0");
  return createHmac("sha256", secret).update(text).digest();
}

export function signCapability(capability: Capability, expiresAtMs: number, secret = getAppSecret()): string {
  const expiresAtSeconds = Math.ceil(expiresAtMs / 1000);
  return `${expiresAtSeconds}.${mac(capability, expiresAtSeconds, secret).toString("base64url")}`;
}

/** True when `token` was signed for exactly this capability and has not expired. */
export function verifyCapability(
  capability: Capability,
  token: string,
  now = Date.now(),
  secret = getAppSecret(),
): boolean {
  const match = TOKEN.exec(token);
  if (!match) return false;
  const expiresAtSeconds = Number(match[1]);
  if (expiresAtSeconds * 1000 <= now) return false;
  const given = Buffer.from(match[2], "base64url");
  const expected = mac(capability, expiresAtSeconds, secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a capability's 401 says: why a given token failed, and how the token is meant to be used. */
export interface CredentialsHelp {
  message: string;
  detail: string;
  howToUse: string;
}

/** The 401 for a request that carried neither a valid capability token nor an API key. */
export function credentialsError(token: string | null, help: CredentialsHelp): Error {
  return token === null
    ? new AppError(
        "unauthorized",
        `Missing API key or token: ${help.howToUse}, or send 'Authorization: Bearer <API_KEY>'`,
        { detail: "invalid_api_key" },
      )
    : new AppError("unauthorized", `${help.message}, or send 'Authorization: Bearer <API_KEY>'`, {
        detail: help.detail,
      });
}
