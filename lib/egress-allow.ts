// SESSION_EGRESS_ALLOW's syntax: hosts, host:port pairs and CIDRs. A base module (like
// lib/ip-ranges.ts) so lib/env.ts can validate the setting without importing the session
// domain; EgressPolicy (lib/computers/egress/policy.ts) applies the parsed entries.
import { isIP } from "node:net";
import { normalizeIp, parseIpRange } from "@/lib/ip-ranges";

export type AllowEntry =
  | { kind: "cidr"; text: string; network: string; prefix: number; family: "ipv4" | "ipv6" }
  | { kind: "host"; text: string; host: string; port: number | null };

/** Parses SESSION_EGRESS_ALLOW; throws naming the first entry that is not a host, host:port or CIDR. */
export function parseEgressAllow(raw: string): AllowEntry[] {
  const entries: AllowEntry[] = [];
  for (const text of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (text.includes("/")) {
      const range = parseIpRange(text);
      if (!range) throw new Error(`"${text}" is not a valid CIDR`);
      entries.push({ kind: "cidr", text, ...range });
      continue;
    }
    // host, host:port, [v6]:port or a bare IPv6 address
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
    const hostPort = /^([^:]+):(\d+)$/.exec(text);
    const [host, port] = bracketed
      ? [bracketed[1], bracketed[2]]
      : hostPort
        ? [hostPort[1], hostPort[2]]
        : [text, undefined];
    const name = normalizeIp(host);
    const portNumber = port === undefined ? null : Number(port);
    if (portNumber !== null && (portNumber < 1 || portNumber > 65535)) throw new Error(`"${text}" has an invalid port`);
    if (!isIP(name) && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(name)) {
      throw new Error(`"${text}" is not a host, host:port or CIDR`);
    }
    entries.push({ kind: "host", text, host: name, port: portNumber });
  }
  return entries;
}
