// Upstream API keys of stored models, encrypted at rest: AES-256-GCM under a key
// derived (HKDF) from the app secret (CABIN_SECRET, lib/secrets.ts), with the
// organization and row as associated data, so a sealed key copied onto another
// row or organization fails to open. Every node of a cluster shares CABIN_SECRET
// (docs/cluster.md), so each can open what another sealed.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getAppSecret } from "@/lib/secrets";
import { singleton, singletonKey } from "@/lib/singleton";

const FORMAT = "v1";
const IV_BYTES = 12;

export function deriveModelKeysKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "cabin-model-keys", "aes-256-gcm v1", 32));
}

const KEY = singletonKey<Buffer>("models.stored.keysKey");
const keysKey = () => singleton(KEY, () => deriveModelKeysKey(getAppSecret()));

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts: text, so both databases store it as a string. */
export function sealApiKey(plain: string, associatedData: string, key: Buffer = keysKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function openApiKey(sealed: string, associatedData: string, key: Buffer = keysKey()): string {
  const [format, iv, tag, ciphertext] = sealed.split(".");
  if (format !== FORMAT || !iv || !tag || ciphertext === undefined)
    throw new Error("The stored API key has an unknown format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(associatedData, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("The stored API key cannot be decrypted (CABIN_SECRET changed, or the row was altered)");
  }
}

/** What is shown of a key once saved: its last 4 characters. */
export function apiKeyHint(plain: string): string {
  return `…${plain.slice(-4)}`;
}

/** The associated data binding a sealed key to its row. */
export const keyBinding = (organizationId: string, rowId: string) => `${organizationId}/${rowId}`;
