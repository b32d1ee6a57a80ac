// The node-to-node key: HKDF-SHA256 of the app secret (CABIN_SECRET) under its own
// label, so it can sign forwarded requests without being any other key the secret
// derives (login cookies, capability tokens, state encryption). Every node of a
// cluster derives the same key only when they share CABIN_SECRET; the fingerprint
// (a MAC of a fixed text, safe to store) lets a starting node check that.
import { createHmac, hkdfSync } from "node:crypto";
import { getAppSecret } from "@/lib/secrets";
import { singleton, singletonKey } from "@/lib/singleton";

const KEY_LABEL = "cabin cluster node-to-node v1";
const clusterKeyKey = singletonKey<Buffer>("clusterKey");

export function deriveClusterKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", KEY_LABEL, 32));
}

export function clusterKey(): Buffer {
  return singleton(clusterKeyKey, () => deriveClusterKey(getAppSecret()));
}

/** What the nodes table stores to compare secrets: equal exactly when the keys are. */
export function keyFingerprint(key: Buffer = clusterKey()): string {
  return createHmac("sha256", key).update("cabin cluster fingerprint").digest("base64url").slice(0, 22);
}
