// Node-to-node signatures on forwarded requests (docs/cluster.md "Forwarding"):
// an HMAC-SHA256, keyed by the cluster key, over the method, the path with its
// query, the time, the caller's identity and the request id. The owner trusts
// the identity only when the MAC matches and the time is within SIGNATURE_WINDOW_MS
// of its own clock. Pure: the key is passed in (clusterKey in cluster-key.ts).
import { createHmac, timingSafeEqual } from "node:crypto";

/** How far the signer's clock may be from the verifier's, either way. */
export const SIGNATURE_WINDOW_MS = 15_000;

/** Who called the forwarding node, as it authenticated them. */
export interface ForwardedIdentity {
  organizationId: string;
  /** The API key the caller used (API surface), or null. */
  apiKeyId: string | null;
  /** The logged-in member (dashboard), or null. */
  member: { userId: string; email: string; name: string; role: string } | null;
}

export interface SignedFields {
  method: string;
  /** Path with query string, exactly as sent to the owner. */
  path: string;
  /** Milliseconds since the epoch at signing. */
  time: number;
  /** The identity, encoded by `encodeIdentity` (null: the caller brought a capability token instead). */
  identity: string | null;
  requestId: string;
  /** The forwarding node's id. */
  from: string;
}

export function encodeIdentity(identity: ForwardedIdentity): string {
  return Buffer.from(JSON.stringify(identity)).toString("base64url");
}

/** The identity an encoded header carries, or null when it is not one. */
export function decodeIdentity(encoded: string): ForwardedIdentity | null {
  try {
    const value = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as ForwardedIdentity;
    if (typeof value?.organizationId !== "string") return null;
    if (value.apiKeyId !== null && typeof value.apiKeyId !== "string") return null;
    if (value.member !== null && typeof value.member?.userId !== "string") return null;
    return value;
  } catch {
    return null;
  }
}

function mac(key: Buffer, fields: SignedFields): Buffer {
  const text = ["cabin-forward-v1", fields.method.toUpperCase(), fields.path, String(fields.time), fields.identity ?? "", fields.requestId, fields.from].join("\n");
  return createHmac("sha256", key).update(text).digest();
}

export function signForward(key: Buffer, fields: SignedFields): string {
  return mac(key, fields).toString("base64url");
}

export type VerifyOutcome = "ok" | "bad_signature" | "stale";

/** "ok" when `signature` is the MAC of these fields and their time is within the window of `now`. */
export function verifyForward(key: Buffer, fields: SignedFields, signature: string, now = Date.now()): VerifyOutcome {
  if (!Number.isFinite(fields.time) || Math.abs(now - fields.time) > SIGNATURE_WINDOW_MS) return "stale";
  const given = Buffer.from(signature, "base64url");
  const expected = mac(key, fields);
  return given.length === expected.length && timingSafeEqual(given, expected) ? "ok" : "bad_signature";
}
