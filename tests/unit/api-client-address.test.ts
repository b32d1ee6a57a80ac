// @needs nothing
import { describe, expect, it } from "vitest";
import { clientAddress } from "@/lib/api/client-address";
import { parseAddressRanges } from "@/lib/ip-ranges";

describe("parseAddressRanges", () => {
  it("matches IPv4, IPv6 and IPv4-mapped addresses", () => {
    const list = parseAddressRanges("10.0.0.0/8, 127.0.0.1, ::1, fd00::/8");
    expect(list.has("10.20.30.40")).toBe(true);
    expect(list.has("11.0.0.1")).toBe(false);
    expect(list.has("::ffff:127.0.0.1")).toBe(true);
    expect(list.has("::1")).toBe(true);
    expect(list.has("fd12:3456::1")).toBe(true);
    expect(list.has("fe80::1")).toBe(false);
    expect(list.has("not-an-ip")).toBe(false);
  });

  it("names a bad entry", () => {
    expect(() => parseAddressRanges("10.0.0.0/33")).toThrow(/10.0.0.0\/33/);
    expect(() => parseAddressRanges("proxy.example")).toThrow(/proxy.example/);
    expect(parseAddressRanges("").ranges).toEqual([]);
  });
});

describe("clientAddress", () => {
  const trusted = parseAddressRanges("127.0.0.1, 10.0.0.0/8");
  it("is the peer when no proxy is trusted, whatever the header says", () => {
    expect(clientAddress("::ffff:192.0.2.1", "203.0.113.9", parseAddressRanges(""))).toBe("192.0.2.1");
    expect(clientAddress("192.0.2.1", "203.0.113.9", trusted)).toBe("192.0.2.1");
  });

  it("walks X-Forwarded-For right to left through trusted proxies", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.9", trusted)).toBe("203.0.113.9");
    expect(clientAddress("127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.1.1", trusted)).toBe("203.0.113.9");
    expect(clientAddress("127.0.0.1", ["6.6.6.6", "10.1.1.1"], trusted)).toBe("6.6.6.6");
    expect(clientAddress("127.0.0.1", "garbage, 10.1.1.1", trusted)).toBe("10.1.1.1");
    expect(clientAddress("127.0.0.1", undefined, trusted)).toBe("127.0.0.1");
  });
});
