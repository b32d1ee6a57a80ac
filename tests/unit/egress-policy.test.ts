// @needs nothing
// EgressPolicy.check: the order of Cabin-itself, the allow-list, never-legitimate
// addresses and public-only, on addresses as a resolver returns them.
import { describe, expect, it } from "vitest";
import { EgressPolicy, parseEgressAllow, type EgressMode } from "@/lib/computers/egress/policy";

function policy(mode: EgressMode = "default", allow = "") {
  return new EgressPolicy({
    mode,
    allow: parseEgressAllow(allow),
    self: { port: 3000, addresses: ["127.0.0.1", "::1", "10.0.0.5"] },
    hostAddresses: ["127.0.0.1", "::1", "10.0.0.5"],
  });
}
const check = (p: EgressPolicy, host: string, ip: string, port = 80) => p.check({ host, ip, port });

describe("EgressPolicy", () => {
  it("refuses loopback, the host's addresses, link-local and metadata by default, and names the policy", () => {
    const p = policy();
    for (const [host, ip] of [
      ["localhost", "127.0.0.1"],
      ["x", "127.9.9.9"],
      ["x", "::1"],
      ["x", "::ffff:127.0.0.1"],
      ["x", "169.254.169.254"],
      ["x", "fd00:ec2::254"],
      ["x", "0.0.0.0"],
      ["x", "10.0.0.5"],
    ]) {
      const d = check(p, host, ip);
      expect(d.allowed, ip).toBe(false);
      if (!d.allowed) expect(d.reason).toMatch(/session egress policy/);
    }
    expect(check(p, "example.com", "93.184.216.34")).toEqual({ allowed: true });
    expect(check(p, "intranet", "10.1.2.3")).toEqual({ allowed: true });
  });

  it("refuses private ranges with public-only, unless allowed", () => {
    const p = policy("public-only", "10.1.2.3:8080,intranet.example");
    expect(check(p, "x", "192.168.1.1").allowed).toBe(false);
    expect(check(p, "x", "fd12::1").allowed).toBe(false);
    expect(check(p, "x", "10.1.2.3", 8080)).toEqual({ allowed: true });
    expect(check(p, "x", "10.1.2.3", 8081).allowed).toBe(false);
    expect(check(p, "intranet.example", "172.16.0.9")).toEqual({ allowed: true });
    expect(check(p, "x", "8.8.8.8")).toEqual({ allowed: true });
  });

  it("allows loopback through a CIDR, but Cabin's own port only when named exactly", () => {
    const p = policy("default", "127.0.0.0/8");
    expect(check(p, "127.0.0.1", "127.0.0.1", 4000)).toEqual({ allowed: true });
    const self = check(p, "127.0.0.1", "127.0.0.1", 3000);
    expect(self.allowed).toBe(false);
    if (!self.allowed) expect(self.reason).toMatch(/Cabin itself/);
    expect(check(p, "x", "10.0.0.5", 3000).allowed).toBe(false);
    expect(check(policy("default", "127.0.0.1:3000"), "127.0.0.1", "127.0.0.1", 3000)).toEqual({ allowed: true });
  });

  it("judges the resolved address, so a name cannot stand in for a refused one", () => {
    expect(check(policy("default", "example.com:443"), "rebind.example", "127.0.0.1", 443).allowed).toBe(false);
  });

  it("names the entry it cannot parse", () => {
    expect(parseEgressAllow(" 127.0.0.0/8 , [::1]:80, host.example:22 ")).toHaveLength(3);
    expect(() => parseEgressAllow("10.0.0.0/33")).toThrow(/"10.0.0.0\/33"/);
    expect(() => parseEgressAllow("bad host")).toThrow(/"bad host"/);
    expect(() => parseEgressAllow("h:0")).toThrow(/invalid port/);
  });
});
