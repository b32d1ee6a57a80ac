// How the owner of a session hands a verified forwarded caller to the code
// below it unchanged (docs/cluster.md "Forwarding"). The forwarding layer
// (acceptForwarded in forward.ts) checks the node signature, then writes the
// caller's identity into `Authorization: CabinForwarded …` (API keys) or the
// FORWARDED_MEMBER_HEADER (dashboard logins), stamped with a random value only
// this process knows: a client that sends either header itself is not believed.
// Imports nothing of lib/auth, so the auth modules can ask it without a cycle.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { decodeIdentity, encodeIdentity, type ForwardedIdentity } from "@/lib/cluster/signature";
import { singleton, singletonKey } from "@/lib/singleton";

const SCHEME = "CabinForwarded ";
export const FORWARDED_MEMBER_HEADER = "x-cabin-forwarded-member";

const stampKey = singletonKey<Buffer>("forwardedIdentityStamp");
const stamp = () => singleton(stampKey, () => randomBytes(24));

function stamped(identity: ForwardedIdentity): string {
  return `${stamp().toString("base64url")}.${encodeIdentity(identity)}`;
}

function unstamp(value: string | null | undefined): ForwardedIdentity | null {
  if (!value) return null;
  const dot = value.indexOf(".");
  if (dot < 0) return null;
  const given = Buffer.from(value.slice(0, dot), "base64url");
  if (given.length !== stamp().length || !timingSafeEqual(given, stamp())) return null;
  return decodeIdentity(value.slice(dot + 1));
}

/** The header values that carry a verified identity to the handlers of this process. */
export function forwardedHeaders(identity: ForwardedIdentity): { authorization?: string; [FORWARDED_MEMBER_HEADER]?: string } {
  if (identity.member) return { [FORWARDED_MEMBER_HEADER]: stamped(identity) };
  return { authorization: SCHEME + stamped(identity) };
}

/** The API principal a verified forwarded request carries in `authorization`, or null when it carries none. */
export function forwardedPrincipal(authorization: string | null): { organizationId: string; apiKeyId: string } | null {
  if (!authorization?.startsWith(SCHEME)) return null;
  const identity = unstamp(authorization.slice(SCHEME.length));
  return identity?.apiKeyId ? { organizationId: identity.organizationId, apiKeyId: identity.apiKeyId } : null;
}

/** The dashboard member a verified forwarded request carries, or null. */
export function forwardedMember(headers: Headers): (NonNullable<ForwardedIdentity["member"]> & { organizationId: string }) | null {
  const identity = unstamp(headers.get(FORWARDED_MEMBER_HEADER));
  return identity?.member ? { ...identity.member, organizationId: identity.organizationId } : null;
}
