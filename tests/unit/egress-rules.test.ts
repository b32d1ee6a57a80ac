// @needs nothing
// EgressPolicy.rules: the ordered rules a desktop's firewall is made from give the same
// answer as EgressPolicy.check for every address (first match decides, none = allowed).
import { BlockList } from "node:net";
import { describe, expect, it } from "vitest";
import { EgressPolicy, parseEgressAllow, type EgressMode, type EgressRule } from "@/lib/computers/egress/policy";

function policy(mode: EgressMode, allow: string) {
  return new EgressPolicy({
    mode,
    allow: parseEgressAllow(allow),
    self: { port: 3000, addresses: ["127.0.0.1", "::1", "10.0.0.5"] },
    hostAddresses: ["127.0.0.1", "::1", "10.0.0.5"],
  });
}

/** First-match evaluation of the rules for a connection to `ip:port`, names resolved by `resolve`. */
function decide(rules: EgressRule[], ip: string, port: number, resolve: Record<string, string[]>): boolean {
  for (const rule of rules) {
    if (rule.port !== null && rule.port !== port) continue;
    const family = ip.includes(":") ? "ipv6" : "ipv4";
    const hit =
      rule.target.kind === "cidr"
        ? rule.target.family === family &&
          (() => {
            const list = new BlockList();
            list.addSubnet(rule.target.network, rule.target.prefix, rule.target.family);
            return list.check(ip, family);
          })()
        : (resolve[rule.target.host] ?? []).includes(ip);
    if (hit) return rule.verdict === "allow";
  }
  return true;
}

const IPS = [
  "127.0.0.1",
  "127.3.4.5",
  "::1",
  "10.0.0.5",
  "10.1.2.3",
  "169.254.169.254",
  "fd00:ec2::254",
  "192.168.1.7",
  "172.16.0.9",
  "8.8.8.8",
  "93.184.216.34",
  "0.0.0.0",
  "224.0.0.1",
  "fd12::1",
  "2001:db8::1",
  "100.64.0.1",
];
const PORTS = [80, 3000, 8080];

describe("EgressPolicy.rules", () => {
  for (const [mode, allow] of [
    ["default", ""],
    ["public-only", ""],
    ["default", "127.0.0.0/8"],
    ["default", "127.0.0.1:3000"],
    ["public-only", "10.1.2.3:8080,192.168.0.0/16"],
    ["public-only", "10.0.0.5,169.254.169.254/32"],
    ["default", "::1,fd12::/16"],
  ] as Array<[EgressMode, string]>) {
    it(`agrees with check() for mode=${mode} allow="${allow}"`, () => {
      const p = policy(mode, allow);
      const rules = p.rules();
      for (const ip of IPS) {
        for (const port of PORTS) {
          expect(decide(rules, ip, port, {}), `${ip}:${port}`).toBe(p.check({ host: ip, ip, port }).allowed);
        }
      }
    });
  }

  it("leaves names for the enforcer to resolve, Cabin's port only for an exact host:port", () => {
    const p = policy("public-only", "intranet.example,localhost:3000");
    const rules = p.rules();
    expect(rules[0]).toMatchObject({ verdict: "allow", target: { kind: "host", host: "localhost" }, port: 3000 });
    expect(rules.some((r) => r.target.kind === "host" && r.target.host === "intranet.example" && r.port === null)).toBe(
      true,
    );
    expect(decide(rules, "172.16.0.9", 443, { "intranet.example": ["172.16.0.9"] })).toBe(true);
    expect(decide(rules, "172.16.0.10", 443, { "intranet.example": ["172.16.0.9"] })).toBe(false);
    expect(decide(rules, "127.0.0.1", 3000, { localhost: ["127.0.0.1"] })).toBe(true);
    expect(decide(rules, "127.0.0.1", 3001, { localhost: ["127.0.0.1"] })).toBe(false);
  });
});
