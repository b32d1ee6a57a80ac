// @needs nothing
import { describe, expect, it } from "vitest";
import { deriveStateKey, openState, sealState } from "@/lib/computers/state/state-crypto";
import { describeProxy, parseProxyUrl } from "@/lib/computers/egress/proxy";

const key = deriveStateKey("x".repeat(40));

describe("state encryption", () => {
  it("round-trips and does not store the plaintext", () => {
    const plain = Buffer.from(
      JSON.stringify({ cookies: [{ name: "sid", value: "secret-cookie-value" }], origins: [] }).repeat(20),
    );
    const sealed = sealState(plain, "comp_1", key);
    expect(sealed.includes(Buffer.from("secret-cookie-value"))).toBe(false);
    expect(sealed.length).toBeLessThan(plain.length); // compressed inside
    expect(openState(sealed, "comp_1", key).equals(plain)).toBe(true);
  });

  it("binds the blob to its session and key, and detects tampering", () => {
    const sealed = sealState(Buffer.from("state"), "comp_1", key);
    expect(() => openState(sealed, "comp_2", key)).toThrow(/cannot be decrypted/);
    expect(() => openState(sealed, "comp_1", deriveStateKey("y".repeat(40)))).toThrow(/cannot be decrypted/);
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] ^= 1;
    expect(() => openState(altered, "comp_1", key)).toThrow(/cannot be decrypted/);
    expect(() => openState(Buffer.from([9, 9, 9]), "comp_1", key)).toThrow(/unknown format/);
  });

  it("stores incompressible data as is", () => {
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
    expect(openState(sealState(random, "c", key), "c", key).equals(random)).toBe(true);
  });
});

describe("proxy URL", () => {
  it("splits credentials from the server", () => {
    expect(parseProxyUrl("http://us%40er:p%3Ass@127.0.0.1:8080")).toEqual({
      server: "http://127.0.0.1:8080",
      username: "us@er",
      password: "p:ss",
    });
    expect(parseProxyUrl("http://proxy.local:3128")).toEqual({ server: "http://proxy.local:3128" });
    expect(describeProxy("http://u:p@h:1")).toBe("http://h:1");
    expect(describeProxy(undefined)).toBeNull();
  });
});
