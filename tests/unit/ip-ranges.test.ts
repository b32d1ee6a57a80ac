// @needs nothing
import { describe, expect, it } from "vitest";
import { AddressRanges, ipFamily, normalizeIp, parseAddressRanges, parseIpRange } from "@/lib/ip-ranges";

describe("normalizeIp", () => {
  it("turns an IPv4-mapped IPv6 address into its IPv4 form, dropping brackets and case", () => {
    expect(normalizeIp("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeIp("::FFFF:10.1.2.3")).toBe("10.1.2.3");
    expect(normalizeIp("[FE80::1]")).toBe("fe80::1");
    expect(normalizeIp("example.com")).toBe("example.com");
  });
});

describe("parseIpRange", () => {
  it("reads addresses and CIDRs of both families", () => {
    expect(parseIpRange("10.0.0.0/8")).toEqual({ network: "10.0.0.0", prefix: 8, family: "ipv4" });
    expect(parseIpRange("192.0.2.7")).toEqual({ network: "192.0.2.7", prefix: 32, family: "ipv4" });
    expect(parseIpRange("fd00::/8")).toEqual({ network: "fd00::", prefix: 8, family: "ipv6" });
    expect(parseIpRange("[::1]")).toEqual({ network: "::1", prefix: 128, family: "ipv6" });
  });

  it("refuses prefixes past the family's width, junk prefixes and names", () => {
    for (const bad of [
      "10.0.0.0/33",
      "::/129",
      "10.0.0.0/x",
      "10.0.0.0/8/1",
      "10.0.0.0/",
      "host.example/8",
      "300.1.1.1",
    ]) {
      expect(parseIpRange(bad), bad).toBeNull();
    }
  });
});

describe("AddressRanges", () => {
  it("matches addresses inside a range, including the mapped form of an IPv4 address", () => {
    const ranges = new AddressRanges([{ network: "172.16.0.0", prefix: 12, family: "ipv4" }]);
    expect(ranges.has("172.31.255.255")).toBe(true);
    expect(ranges.has("172.32.0.0")).toBe(false);
    expect(ranges.has("::ffff:172.16.0.1")).toBe(true);
    expect(ranges.has("not an address")).toBe(false);
  });

  it("keeps families apart and matches a /0 as everything of its family", () => {
    const ranges = parseAddressRanges("0.0.0.0/0");
    expect(ranges.has("203.0.113.9")).toBe(true);
    expect(ranges.has("2001:db8::1")).toBe(false);
    expect(ipFamily("2001:db8::1")).toBe("ipv6");
  });
});
