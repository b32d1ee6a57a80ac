// Which address a request came from, for limits keyed on the client (login
// attempts). The socket's peer, unless that peer is a proxy the operator
// listed in TRUSTED_PROXIES: then the nearest X-Forwarded-For entry that is
// not itself a trusted proxy. A header from anyone else is ignored, so a
// client cannot pick its own counter by rotating X-Forwarded-For.
import { isIP } from "node:net";

/** The header the custom server sets (overwriting what the client sent) and Better Auth reads. */
export const CLIENT_ADDRESS_HEADER = "x-cabin-client-address";

interface Cidr {
  bytes: number[];
  prefix: number;
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is its IPv4 address: that is how Node reports IPv4 peers on a dual-stack socket. */
function normalize(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

function toBytes(address: string): number[] | null {
  const ip = normalize(address.trim());
  if (isIP(ip) === 4) return ip.split(".").map(Number);
  if (isIP(ip) !== 6) return null;
  const [head, tail = ""] = ip.split("::");
  const groups = (part: string) => (part ? part.split(":") : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const all = [...groups(head), ...Array(ip.includes("::") ? missing : 0).fill("0"), ...groups(tail)];
  return all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/** Parses "10.0.0.0/8, 127.0.0.1, ::1" (addresses or CIDRs); throws naming a bad entry. */
export function parseCidrList(list: string): Cidr[] {
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address, prefixText] = entry.split("/");
      const bytes = toBytes(address);
      const prefix = prefixText === undefined ? (bytes?.length ?? 0) * 8 : Number(prefixText);
      if (!bytes || !Number.isInteger(prefix) || prefix < 0 || prefix > bytes.length * 8) {
        throw new Error(`'${entry}' is not an IP address or CIDR range`);
      }
      return { bytes, prefix };
    });
}

export function inCidrs(address: string, cidrs: Cidr[]): boolean {
  const bytes = toBytes(address);
  if (!bytes) return false;
  return cidrs.some(({ bytes: net, prefix }) => {
    if (net.length !== bytes.length) return false;
    for (let bit = 0; bit < prefix; bit++) {
      const mask = 0x80 >> bit % 8;
      if ((net[bit >> 3] & mask) !== (bytes[bit >> 3] & mask)) return false;
    }
    return true;
  });
}

/** The client's address: see the comment at the top. */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: Cidr[]): string {
  let address = normalize(peer ?? "unknown");
  if (!trusted.length || !inCidrs(address, trusted)) return address;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor ?? "").split(",").map((h) => h.trim()).filter(Boolean);
  // Right to left: each trusted proxy vouches for the hop before it.
  while (hops.length) {
    const hop = normalize(hops.pop()!);
    if (!isIP(hop)) break;
    address = hop;
    if (!inCidrs(hop, trusted)) break;
  }
  return address;
}
