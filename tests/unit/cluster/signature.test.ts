// @needs nothing
import { describe, expect, it } from "vitest";
import { deriveClusterKey, keyFingerprint } from "@/lib/cluster/cluster-key";
import {
  decodeIdentity,
  encodeIdentity,
  SIGNATURE_WINDOW_MS,
  signForward,
  verifyForward,
  type SignedFields,
} from "@/lib/cluster/signature";

const key = deriveClusterKey("a".repeat(40));
const identity = encodeIdentity({ organizationId: "org_1", apiKeyId: "key_1", member: null });
const fields: SignedFields = {
  method: "POST",
  path: "/computers/comp_1/execute?x=1",
  time: 1_000_000,
  identity,
  requestId: "req_1",
  from: "node-a",
};

describe("node-to-node signatures", () => {
  it("verifies the fields it signed, within the clock window either way", () => {
    const sig = signForward(key, fields);
    expect(verifyForward(key, fields, sig, fields.time)).toBe("ok");
    expect(verifyForward(key, fields, sig, fields.time + SIGNATURE_WINDOW_MS)).toBe("ok");
    expect(verifyForward(key, fields, sig, fields.time - SIGNATURE_WINDOW_MS)).toBe("ok");
  });

  it("refuses a stale or future time", () => {
    const sig = signForward(key, fields);
    expect(verifyForward(key, fields, sig, fields.time + SIGNATURE_WINDOW_MS + 1)).toBe("stale");
    expect(verifyForward(key, fields, sig, fields.time - SIGNATURE_WINDOW_MS - 1)).toBe("stale");
    expect(verifyForward(key, { ...fields, time: Number.NaN }, sig, fields.time)).toBe("stale");
  });

  it("refuses any changed field, another key and a mangled signature", () => {
    const sig = signForward(key, fields);
    const changes: Partial<SignedFields>[] = [
      { method: "DELETE" },
      { path: "/computers/comp_2/execute?x=1" },
      { path: "/computers/comp_1/execute?x=2" },
      { identity: encodeIdentity({ organizationId: "org_2", apiKeyId: "key_1", member: null }) },
      { identity: null },
      { requestId: "req_2" },
      { from: "node-b" },
    ];
    for (const change of changes)
      expect(verifyForward(key, { ...fields, ...change }, sig, fields.time)).toBe("bad_signature");
    expect(verifyForward(deriveClusterKey("b".repeat(40)), fields, sig, fields.time)).toBe("bad_signature");
    expect(verifyForward(key, fields, sig.slice(0, -2), fields.time)).toBe("bad_signature");
    expect(verifyForward(key, fields, "", fields.time)).toBe("bad_signature");
  });

  it("derives a key of its own from the secret, and a fingerprint equal only for equal secrets", () => {
    expect(deriveClusterKey("a".repeat(40)).equals(key)).toBe(true);
    expect(key.toString("hex")).not.toContain(Buffer.from("a".repeat(40)).toString("hex"));
    expect(keyFingerprint(key)).toBe(keyFingerprint(deriveClusterKey("a".repeat(40))));
    expect(keyFingerprint(key)).not.toBe(keyFingerprint(deriveClusterKey("b".repeat(40))));
  });

  it("round-trips identities and rejects what is not one", () => {
    const member = {
      organizationId: "o",
      apiKeyId: null,
      member: { userId: "u", email: "e@x", name: "N", role: "owner" },
    };
    expect(decodeIdentity(encodeIdentity(member))).toEqual(member);
    expect(decodeIdentity("not base64 json")).toBeNull();
    expect(decodeIdentity(Buffer.from(JSON.stringify({ apiKeyId: "k" })).toString("base64url"))).toBeNull();
  });
});
