// @needs nothing
// desktopFirewall: the egress policy's rules as a desktop's nftables ruleset, with the
// host's 127.0.0.1 seen from inside as slirp4netns's 10.0.2.2.
import { describe, expect, it } from "vitest";
import { desktopFirewall } from "@/lib/computers/desktop/network";
import { EgressPolicy, parseEgressAllow, type EgressMode } from "@/lib/computers/egress/policy";

function firewall(mode: EgressMode, allow: string, resolved: Record<string, string[]> = {}) {
  const policy = new EgressPolicy({
    mode,
    allow: parseEgressAllow(allow),
    self: { port: 3000, addresses: ["127.0.0.1", "::1"] },
    hostAddresses: ["127.0.0.1", "::1", "192.0.2.2"],
  });
  return desktopFirewall(policy.rules(), new Map(Object.entries(resolved)));
}
const ruleLines = (ruleset: string) =>
  ruleset.split("\n").filter((l) => l.includes("ip daddr") && !l.includes("10.0.2.3"));

describe("desktopFirewall", () => {
  // Also: keeps slirp4netns's host loopback off.
  it("refuses the host's loopback, its addresses and metadata by default", () => {
    const { ruleset, hostLoopback } = firewall("default", "");
    expect(hostLoopback).toBe(false);
    const lines = ruleLines(ruleset);
    expect(lines.some((l) => l.includes("10.0.2.2/32") && l.includes("accept"))).toBe(false);
    expect(lines.find((l) => l.includes("10.0.2.2/32"))).toMatch(/reject/);
    expect(lines.find((l) => l.includes("192.0.2.2/32"))).toMatch(/reject/);
    expect(lines.find((l) => l.includes("169.254.0.0/16"))).toMatch(/reject/);
    expect(lines.some((l) => l.includes("10.0.0.0/8"))).toBe(false);
    // The desktop's own loopback is never filtered; IPv6 has no way out; DNS goes to the forwarder.
    expect(lines.some((l) => l.includes("127.0.0.0/8"))).toBe(false);
    expect(ruleset).toMatch(/oifname "lo" accept/);
    expect(ruleset).toMatch(/meta nfproto ipv6 reject/);
    expect(ruleset).toMatch(/ip daddr 10\.0\.2\.3 meta l4proto \{ tcp, udp \} th dport 53 accept/);
  });

  it("maps an allowed loopback range to 10.0.2.2 after Cabin's own port", () => {
    const { ruleset, hostLoopback } = firewall("public-only", "127.0.0.0/8");
    expect(hostLoopback).toBe(true);
    const lines = ruleLines(ruleset);
    const cabin = lines.findIndex((l) => l.includes("10.0.2.2/32") && l.includes("dport 3000") && l.includes("reject"));
    const allowed = lines.findIndex((l) => l.includes("10.0.2.2/32") && !l.includes("dport") && l.includes("accept"));
    expect(cabin).toBeGreaterThanOrEqual(0);
    expect(allowed).toBeGreaterThan(cabin);
    expect(lines.find((l) => l.includes("10.0.0.0/8"))).toMatch(/reject/);
  });

  it("allows Cabin only when named exactly, and resolved names with their ports", () => {
    const named = ruleLines(
      firewall("default", "localhost:3000,intranet.example:8080", {
        localhost: ["127.0.0.1", "::1"],
        "intranet.example": ["10.9.8.7"],
      }).ruleset,
    );
    expect(named[0]).toMatch(/ip daddr 10\.0\.2\.2\/32 meta l4proto \{ tcp, udp \} th dport 3000 accept/);
    expect(named.some((l) => /ip daddr 10\.9\.8\.7\/32 .*dport 8080 accept/.test(l))).toBe(true);
  });
});
