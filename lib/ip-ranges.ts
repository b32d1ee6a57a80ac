// IP addresses and ranges, matched with `node:net`'s BlockList (which also
// matches an IPv4-mapped IPv6 address, ::ffff:1.2.3.4, against IPv4 ranges).
// The one place that parses "10.0.0.0/8"-style ranges and turns a mapped
// address back into its IPv4 form: TRUSTED_PROXIES (`clientAddress`), the
// session egress policy (`EgressPolicy`) and the desktops' firewall use it.
// Depends on nothing of the house, so lib/env.ts can validate settings with it.
import { BlockList, isIP } from "node:net";

export type IpFamily = "ipv4" | "ipv6";

/** A network and its prefix length ("10.0.0.0/8"; a lone address is a /32 or /128). */
export interface IpRange {
  network: string;
  prefix: number;
  family: IpFamily;
}

/**
 * `::ffff:127.0.0.1` → `127.0.0.1`; brackets and case removed. Node reports IPv4
 * peers on a dual-stack socket in the mapped form, and addresses are compared as text
 * (sets of the host's own addresses, log lines), so one spelling is kept.
 */
export function normalizeIp(raw: string): string {
  const ip = raw
    .trim()
    .replace(/^\[|\]$/g, "")
    .toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  return mapped ? mapped[1] : ip;
}

/** "ipv4", "ipv6", or null for anything that is not an address literal. */
export function ipFamily(address: string): IpFamily | null {
  const version = isIP(address);
  return version === 4 ? "ipv4" : version === 6 ? "ipv6" : null;
}

/** "a.b.c.d", "a.b.c.d/n", "v6::addr" or "v6::/n" as a range; null when it is none of these. */
export function parseIpRange(text: string): IpRange | null {
  const [address, prefixText, ...rest] = text.trim().split("/");
  if (rest.length || address === undefined) return null;
  const network = normalizeIp(address);
  const family = ipFamily(network);
  if (!family) return null;
  const bits = family === "ipv4" ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  return prefix <= bits ? { network, prefix, family } : null;
}

/** A set of ranges to test addresses against. */
export class AddressRanges {
  private readonly list = new BlockList();

  constructor(readonly ranges: readonly IpRange[]) {
    for (const { network, prefix, family } of ranges) this.list.addSubnet(network, prefix, family);
  }

  /** Whether the address lies in one of the ranges (false for anything that is not an address). */
  has(address: string): boolean {
    const ip = normalizeIp(address);
    const family = ipFamily(ip);
    return family !== null && this.list.check(ip, family);
  }
}

/** Parses "10.0.0.0/8, 127.0.0.1, ::1" (addresses or CIDRs); throws naming the first bad entry. */
export function parseAddressRanges(list: string): AddressRanges {
  const entries = list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return new AddressRanges(
    entries.map((entry) => {
      const range = parseIpRange(entry);
      if (!range) throw new Error(`'${entry}' is not an IP address or CIDR range`);
      return range;
    }),
  );
}
