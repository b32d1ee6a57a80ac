// Upstream API keys of stored models, encrypted at rest: AES-256-GCM under a key
// derived (HKDF) from the app secret (CABIN_SECRET, lib/secrets.ts), with the
// organization and row as associated data, so a sealed key copied onto another
// row or organization fails to open. Every node of a cluster shares CABIN_SECRET
// (docs/cluster.md), so each can open what another sealed.
import { hkdfSync } from "node:crypto";
import { openText, sealText } from "@/lib/sealed-text";
import { getAppSecret } from "@/lib/secrets";
import { singleton, singletonKey } from "@/lib/singleton";

export function deriveModelKeysKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "cabin-model-keys", "aes-256-gcm v1", 32));
}

const KEY = singletonKey<Buffer>("models.stored.keysKey");
const keysKey = () => singleton(KEY, () => deriveModelKeysKey(getAppSecret()));

/** `v1.<iv>.<tag>.<ciphertext>` (`sealText`). */
export function sealApiKey(plain: string, associatedData: string, key: Buffer = keysKey()): string {
  return sealText(plain, associatedData, key);
}

export function openApiKey(sealed: string, associatedData: string, key: Buffer = keysKey()): string {
  return openText(sealed, associatedData, key, "API key");
}

/** What is shown of a key once saved: its last 4 characters. */
export function apiKeyHint(plain: string): string {
  return `…${plain.slice(-4)}`;
}

/** The associated data binding a sealed key to its row. */
export const keyBinding = (organizationId: string, rowId: string) => `${organizationId}/${rowId}`;
