// Which address a request came from, for limits keyed on the client (login
// attempts). The socket's peer, unless that peer is a proxy the operator
// listed in TRUSTED_PROXIES: then the nearest X-Forwarded-For entry that is
// not itself a trusted proxy. A header from anyone else is ignored, so a
// client cannot pick its own counter by rotating X-Forwarded-For. The trusted
// ranges are parsed by `parseAddressRanges` (lib/ip-ranges).
import { isIP } from "node:net";
import type { AddressRanges } from "@/lib/ip-ranges";
import { normalizeIp } from "@/lib/ip-ranges";

/** The header the custom server sets (overwriting what the client sent) and Better Auth reads. */
export const CLIENT_ADDRESS_HEADER = "x-cabin-client-address";

/** The client's address: see the comment at the top. */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: AddressRanges,
): string {
  let address = normalizeIp(peer ?? "unknown");
  if (!trusted.has(address)) return address;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  // Right to left: each trusted proxy vouches for the hop before it.
  while (hops.length) {
    const hop = normalizeIp(hops.pop()!);
    if (!isIP(hop)) break;
    address = hop;
    if (!trusted.has(hop)) break;
  }
  return address;
}
