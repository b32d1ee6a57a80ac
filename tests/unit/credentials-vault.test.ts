// The credential vault's pure parts: sealing bound to its row, where values may be
// filled, and the create body's checks (400s naming the field, never echoing a value).
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { createCredentialBody } from "@/lib/credentials/credential-input";
import { hostMatches } from "@/lib/credentials/host-match";
import { deriveVaultKey, rowBinding, seal, unseal } from "@/lib/credentials/sealing";

const key = deriveVaultKey("a long random app secret for the unit test");
const other = deriveVaultKey("another app secret");

describe("sealing", () => {
  it("round-trips, never holds the values in clear, and opens only on its own row and key", () => {
    const plain = JSON.stringify({ username: "ada", password: "correct horse battery staple" });
    const sealed = seal(plain, rowBinding("org_a", "cred_1", "values"), key);
    expect(sealed).not.toContain("horse");
    expect(seal(plain, rowBinding("org_a", "cred_1", "values"), key)).not.toBe(sealed);
    expect(unseal(sealed, rowBinding("org_a", "cred_1", "values"), key)).toBe(plain);
    expect(() => unseal(sealed, rowBinding("org_b", "cred_1", "values"), key)).toThrow(/cannot be decrypted/);
    expect(() => unseal(sealed, rowBinding("org_a", "cred_2", "values"), key)).toThrow(/cannot be decrypted/);
    expect(() => unseal(sealed, rowBinding("org_a", "cred_1", "totp"), key)).toThrow(/cannot be decrypted/);
    expect(() => unseal(sealed, rowBinding("org_a", "cred_1", "values"), other)).toThrow(/cannot be decrypted/);
  });
});

describe("hostMatches", () => {
  it("takes the domain and its subdomains", () => {
    expect(hostMatches("example.com", "example.com")).toBe(true);
    expect(hostMatches("login.example.com", "example.com")).toBe(true);
    expect(hostMatches("a.b.example.com", "EXAMPLE.com.")).toBe(true);
    expect(hostMatches("127.0.0.1", "127.0.0.1")).toBe(true);
  });

  it("refuses look-alikes, parents and other addresses", () => {
    expect(hostMatches("evil-example.com", "example.com")).toBe(false);
    expect(hostMatches("example.com.evil.net", "example.com")).toBe(false);
    expect(hostMatches("example.com", "login.example.com")).toBe(false);
    expect(hostMatches("localhost", "127.0.0.1")).toBe(false);
    expect(hostMatches("10.0.0.1", "0.0.1")).toBe(false);
    expect(hostMatches("", "example.com")).toBe(false);
  });
});

function refusal(body: unknown) {
  try {
    parseWith(createCredentialBody, body);
  } catch (err) {
    if (isAppError(err)) return { param: err.param, message: err.message };
    throw err;
  }
  throw new Error("accepted");
}

describe("create body", () => {
  const good = { name: "acme", domain: "acme.test", values: { username: "ada", password: "s3cret-value" } };

  it("accepts a login, reduces a URL to its host, and normalizes the TOTP secret", () => {
    const parsed = parseWith(createCredentialBody, {
      ...good,
      domain: "https://Login.Acme.test/sign-in",
      totp_secret: "jbsw y3dp ehpk 3pxp",
    });
    expect(parsed.domain).toBe("login.acme.test");
    expect(parsed.totp_secret).toBe("JBSWY3DPEHPK3PXP");
  });

  it("names the field of every refusal and never repeats a value", () => {
    expect(refusal({ ...good, name: "has space" }).param).toBe("name");
    expect(refusal({ ...good, domain: "acme.test/login" }).param).toBe("domain");
    expect(refusal({ ...good, values: {} }).param).toBe("values");
    expect(refusal({ ...good, values: { password: 42 } }).param).toBe("values.password");
    expect(refusal({ ...good, values: { "Bad Name": "x" } }).param).toBe("values.Bad Name");
    const totp = refusal({ ...good, totp_secret: "not-base32-s3cret-value!" });
    expect(totp.param).toBe("totp_secret");
    expect(totp.message).not.toContain("s3cret");
    expect(refusal({ ...good, totp_secret: "JBSWY3DP" }).param).toBe("totp_secret");
    expect(refusal({ ...good, extra: 1 }).param).toBe("extra");
  });
});
