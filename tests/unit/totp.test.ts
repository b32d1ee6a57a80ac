// One-time codes of the credential vault against the RFCs' own test vectors.
import { describe, expect, it } from "vitest";
import { decodeBase32, hotp, normalizeBase32, totp, type TotpAlgorithm } from "@/lib/credentials/totp";

const SEEDS: Record<TotpAlgorithm, Buffer> = {
  sha1: Buffer.from("12345678901234567890", "ascii"),
  sha256: Buffer.from("12345678901234567890123456789012", "ascii"),
  sha512: Buffer.from("1234567890123456789012345678901234567890123456789012345678901234", "ascii"),
};

// RFC 6238, Appendix B: time (s), then the 8-digit codes for SHA-1, SHA-256, SHA-512.
const RFC6238: Array<[number, string, string, string]> = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

// RFC 4226, Appendix D: HOTP of counters 0..9 with the SHA-1 seed, 6 digits.
const RFC4226 = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];

describe("TOTP (RFC 6238)", () => {
  for (const [at, sha1, sha256, sha512] of RFC6238) {
    it(`gives the RFC's codes at T=${at}`, () => {
      expect(totp(SEEDS.sha1, { at, digits: 8, algorithm: "sha1" })).toBe(sha1);
      expect(totp(SEEDS.sha256, { at, digits: 8, algorithm: "sha256" })).toBe(sha256);
      expect(totp(SEEDS.sha512, { at, digits: 8, algorithm: "sha512" })).toBe(sha512);
    });
  }

  it("defaults to what authenticator apps use: 30 s, 6 digits, SHA-1 (the last 6 digits of the 8)", () => {
    expect(totp(SEEDS.sha1, { at: 59 })).toBe("287082");
    expect(totp(SEEDS.sha1, { at: 1111111109 })).toBe("081804");
    // The same 30-second window gives the same code; the next window another.
    expect(totp(SEEDS.sha1, { at: 1111111080 })).toBe(totp(SEEDS.sha1, { at: 1111111109.9 }));
    expect(totp(SEEDS.sha1, { at: 1111111111 })).toBe("050471");
  });
});

describe("HOTP (RFC 4226)", () => {
  RFC4226.forEach((code, counter) => {
    it(`counter ${counter} → ${code}`, () => expect(hotp(SEEDS.sha1, counter)).toBe(code));
  });
});

describe("base32 secrets", () => {
  it("decodes the RFC seed as sites show it, whatever its case, spacing or padding", () => {
    const shown = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(decodeBase32(shown)?.toString("ascii")).toBe("12345678901234567890");
    expect(decodeBase32("gezd gnbv gy3t qojq gezd gnbv gy3t qojq")?.toString("ascii")).toBe("12345678901234567890");
    expect(normalizeBase32("jbsw-y3dp ehpk 3pxp==")).toBe("JBSWY3DPEHPK3PXP");
    expect(decodeBase32("JBSWY3DPEHPK3PXP")?.toString("hex")).toBe("48656c6c6f21deadbeef");
  });

  it("refuses characters outside the alphabet", () => {
    expect(decodeBase32("ABC1")).toBeNull();
    expect(decodeBase32("ABC0")).toBeNull();
    expect(decodeBase32("AB!C")).toBeNull();
  });
});
