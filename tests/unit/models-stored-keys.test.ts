// @needs nothing
// Stored models' keys at rest, and the entry check they share with MODELS.
import { describe, expect, it } from "vitest";
import { parseModelEntry } from "@/lib/models/config";
import { apiKeyHint, deriveModelKeysKey, openApiKey, sealApiKey } from "@/lib/models/stored/key-crypto";

const key = deriveModelKeysKey("a long random app secret for the unit test");
const other = deriveModelKeysKey("another app secret");
const DEFAULTS = { prefix: "svc", threads: 1, contextSize: 512, parallel: 1, queueSize: 1, upstreamTimeoutMs: 1000 };

describe("stored model keys", () => {
  it("round-trips, never holds the key in clear, and differs per sealing", () => {
    const plain = "sk-live-abcdef0123456789";
    const sealed = sealApiKey(plain, "org_1/mdl_1", key);
    expect(sealed).not.toContain(plain);
    expect(sealed).not.toContain(Buffer.from(plain).toString("base64url"));
    expect(sealApiKey(plain, "org_1/mdl_1", key)).not.toBe(sealed);
    expect(openApiKey(sealed, "org_1/mdl_1", key)).toBe(plain);
  });

  it("refuses another row's binding, another secret, and an altered value", () => {
    const sealed = sealApiKey("sk-1234", "org_1/mdl_1", key);
    expect(() => openApiKey(sealed, "org_2/mdl_1", key)).toThrow(/cannot be decrypted/);
    expect(() => openApiKey(sealed, "org_1/mdl_1", other)).toThrow(/cannot be decrypted/);
    const parts = sealed.split(".");
    parts[3] = `${parts[3]!.slice(0, -2)}AA`;
    expect(() => openApiKey(parts.join("."), "org_1/mdl_1", key)).toThrow(/cannot be decrypted/);
    expect(() => openApiKey("v9.x.y.z", "org_1/mdl_1", key)).toThrow(/unknown format/);
  });

  it("shows only the last 4 characters", () => {
    expect(apiKeyHint("sk-live-abcdef0123456789")).toBe("…6789");
  });
});

describe("parseModelEntry", () => {
  it("builds the same config as MODELS, and names the entry's field on a problem", () => {
    const ok = parseModelEntry(
      "acme.v",
      { backend: "openai-compatible", url: "http://127.0.0.1:9/v1/", apiKey: "k", prices: { input: 1, output: 2 } },
      DEFAULTS,
    );
    expect(ok.config).toMatchObject({
      id: "acme.v",
      prices: { input: 1, output: 2 },
      backends: [{ backend: "openai-compatible", url: "http://127.0.0.1:9/v1", apiKey: "k", upstreamModel: "acme.v" }],
    });
    const bad = parseModelEntry("acme.v", { backend: "openai-compatible", url: "ftp://x" }, DEFAULTS);
    expect(bad.problems?.[0]?.path).toEqual(["url"]);
    const id = parseModelEntry("has space", { backend: "openai-compatible", url: "http://x/v1" }, DEFAULTS);
    expect(id.problems?.[0]?.path).toEqual([]);
  });
});
