// @needs nothing
import { describe, expect, it } from "vitest";
import { bearerKey, generateApiKey, hashApiKey, isWellFormedKey, prefixOf } from "@/lib/auth/api-key-format";

describe("API key format", () => {
  it("generates distinct well-formed keys whose hash and prefix match", () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).not.toBe(b.key);
    expect(isWellFormedKey(a.key)).toBe(true);
    expect(a.prefix).toBe(a.key.slice(0, 12));
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(prefixOf(a.key)).toBe(a.prefix);
  });

  it("reads only well-formed bearer headers", () => {
    const { key } = generateApiKey();
    expect(bearerKey(`Bearer ${key}`)).toBe(key);
    expect(bearerKey(`bearer   ${key} `)).toBe(key);
    expect(bearerKey(key)).toBeNull();
    expect(bearerKey(`Basic ${key}`)).toBeNull();
    expect(bearerKey("Bearer cbn_short")).toBeNull();
    expect(bearerKey(`Bearer ${key}x`)).toBeNull();
    expect(bearerKey(null)).toBeNull();
  });
});
