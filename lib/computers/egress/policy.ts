// Where a session may connect (SESSION_EGRESS, SESSION_EGRESS_ALLOW). Pure: the
// browser's egress proxy and the desktops' network rules both ask `EgressPolicy.check`
// with the address a name resolved to, so a rebinding name or a redirect gets the same
// answer as a literal address.
//
// Order: Cabin's own listening address is refused unless the allow-list names that
// exact host:port; then the allow-list; then what is never legitimate from a session
// (the host's loopback and its own interface addresses, link-local and cloud
// metadata, unspecified and multicast); then, with SESSION_EGRESS=public-only, the
// private ranges.
import { isIP } from "node:net";
import { type AllowEntry, parseEgressAllow } from "@/lib/egress-allow";
import { AddressRanges, type IpFamily, ipFamily, normalizeIp } from "@/lib/ip-ranges";

export { normalizeIp, parseEgressAllow, type AllowEntry };

export type EgressMode = "default" | "public-only";

export type EgressDecision = { allowed: true } | { allowed: false; reason: string };

export interface EgressTarget {
  /** The name as the session asked for it (lowercase), or an address literal. */
  host: string;
  /** The address it resolved to (the one that will be connected to). */
  ip: string;
  port: number;
}

const NEVER: Array<[string, number, string]> = [
  ["127.0.0.0", 8, "the host's loopback"],
  ["0.0.0.0", 8, "an unspecified address"],
  ["169.254.0.0", 16, "link-local (cloud metadata)"],
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "broadcast"],
  ["::1", 128, "the host's loopback"],
  ["::", 128, "an unspecified address"],
  ["fe80::", 10, "link-local"],
  ["fd00:ec2::254", 128, "cloud metadata"],
  ["ff00::", 8, "multicast"],
];

const PRIVATE: Array<[string, number, string]> = [
  ["10.0.0.0", 8, "a private network"],
  ["172.16.0.0", 12, "a private network"],
  ["192.168.0.0", 16, "a private network"],
  ["100.64.0.0", 10, "a carrier-grade NAT network"],
  ["198.18.0.0", 15, "a benchmarking network"],
  ["fc00::", 7, "a private network (unique local)"],
];

function family(ip: string): IpFamily {
  return ipFamily(ip) ?? "ipv4";
}

function rangeLists(ranges: Array<[string, number, string]>): Array<[AddressRanges, string]> {
  return ranges.map(([network, prefix, why]) => [
    new AddressRanges([{ network, prefix, family: family(network) }]),
    why,
  ]);
}

/**
 * One line of the policy as an ordered rule list, for enforcement that cannot call
 * `check` per connection (a desktop's firewall): the first rule that matches a
 * connection decides; none matching means allowed. Names (`kind: "host"`) are for the
 * enforcer to resolve; `port: null` means every port.
 */
export interface EgressRule {
  verdict: "allow" | "refuse";
  target: { kind: "cidr"; network: string; prefix: number; family: "ipv4" | "ipv6" } | { kind: "host"; host: string };
  port: number | null;
  why: string;
}

export interface EgressPolicyOptions {
  mode: EgressMode;
  allow: AllowEntry[];
  /** Cabin's listening port and every address it can be reached on (loopback, the host's interfaces, or HOST). */
  self: { port: number; addresses: string[] };
  /** The host's own interface addresses: refused like loopback, since services bound to 0.0.0.0 answer there too. */
  hostAddresses: string[];
}

export class EgressPolicy {
  private readonly never = rangeLists(NEVER);
  private readonly private = rangeLists(PRIVATE);
  private readonly allowed: Array<{ entry: AllowEntry; list?: AddressRanges }>;
  private readonly selfAddresses: Set<string>;
  private readonly hostAddresses: Set<string>;

  constructor(readonly options: EgressPolicyOptions) {
    this.allowed = options.allow.map((entry) => {
      if (entry.kind !== "cidr") return { entry };
      return { entry, list: new AddressRanges([entry]) };
    });
    this.selfAddresses = new Set(options.self.addresses.map(normalizeIp));
    this.hostAddresses = new Set(options.hostAddresses.map(normalizeIp));
  }

  check(target: EgressTarget): EgressDecision {
    const ip = normalizeIp(target.ip);
    const host = normalizeIp(target.host);
    const refuse = (what: string): EgressDecision => ({
      allowed: false,
      reason: `blocked by the session egress policy: ${host === ip ? ip : `${host} (${ip})`}:${target.port} is ${what}`,
    });
    const isSelf =
      target.port === this.options.self.port &&
      (this.selfAddresses.has(ip) || this.isNever(ip) === "the host's loopback");
    if (isSelf) {
      const named = this.allowed.some(
        ({ entry }) =>
          entry.kind === "host" && entry.port === target.port && (entry.host === host || entry.host === ip),
      );
      return named
        ? { allowed: true }
        : refuse("Cabin itself (only an exact host:port in SESSION_EGRESS_ALLOW allows it)");
    }
    if (this.isAllowListed(host, ip, target.port)) return { allowed: true };
    if (this.hostAddresses.has(ip)) return refuse("an address of the host (SESSION_EGRESS_ALLOW can allow it)");
    const never = this.isNever(ip);
    if (never) return refuse(`${never} (SESSION_EGRESS_ALLOW can allow it)`);
    if (this.options.mode === "public-only") {
      const privateRange = this.private.find(([list]) => list.has(ip));
      if (privateRange)
        return refuse(
          `${privateRange[1]}, refused with SESSION_EGRESS=public-only (SESSION_EGRESS_ALLOW can allow it)`,
        );
    }
    return { allowed: true };
  }

  /** The policy as ordered rules; the first match gives the same answer as `check`. */
  rules(): EgressRule[] {
    const { self, allow, mode } = this.options;
    const cidr = (ip: string, prefix?: number) => {
      const network = normalizeIp(ip);
      return {
        kind: "cidr" as const,
        network,
        prefix: prefix ?? (isIP(network) === 6 ? 128 : 32),
        family: family(network),
      };
    };
    const ranges = (list: Array<[string, number, string]>) =>
      list.map(
        ([network, prefix, why]): EgressRule => ({ verdict: "refuse", target: cidr(network, prefix), port: null, why }),
      );
    const hostTarget = (entry: AllowEntry & { kind: "host" }) =>
      isIP(entry.host) ? cidr(entry.host) : { kind: "host" as const, host: entry.host };
    return [
      // Cabin itself, unless named exactly (host:port with its port).
      ...allow
        .filter((e) => e.kind === "host" && e.port === self.port)
        .map(
          (e): EgressRule => ({
            verdict: "allow",
            target: hostTarget(e as AllowEntry & { kind: "host" }),
            port: self.port,
            why: `SESSION_EGRESS_ALLOW names ${e.text}`,
          }),
        ),
      ...[...this.selfAddresses, "127.0.0.0/8", "::1"].map((address): EgressRule => {
        const [ip, prefix] = address.split("/");
        return {
          verdict: "refuse",
          target: cidr(ip, prefix ? Number(prefix) : undefined),
          port: self.port,
          why: "Cabin itself",
        };
      }),
      ...allow.map(
        (e): EgressRule => ({
          verdict: "allow",
          target: e.kind === "cidr" ? cidr(e.network, e.prefix) : hostTarget(e),
          port: e.kind === "cidr" ? null : e.port,
          why: `SESSION_EGRESS_ALLOW allows ${e.text}`,
        }),
      ),
      ...[...this.hostAddresses].map(
        (ip): EgressRule => ({ verdict: "refuse", target: cidr(ip), port: null, why: "an address of the host" }),
      ),
      ...ranges(NEVER),
      ...(mode === "public-only" ? ranges(PRIVATE) : []),
    ];
  }

  private isNever(ip: string): string | null {
    if (!isIP(ip)) return "not an IP address";
    return this.never.find(([list]) => list.has(ip))?.[1] ?? null;
  }

  private isAllowListed(host: string, ip: string, port: number): boolean {
    return this.allowed.some(({ entry, list }) => {
      if (entry.kind === "cidr") return family(ip) === entry.family && list!.has(ip);
      return (entry.host === host || entry.host === ip) && (entry.port === null || entry.port === port);
    });
  }
}
