// Encryption at rest for saved computer state: AES-256-GCM, the session id as
// associated data (a blob copied onto another row fails to open), gzip inside.
// The key comes from STATE_ENCRYPTION_KEY, else is derived from the app secret;
// either way through HKDF, so any long random string works as the setting.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { getEnv } from "@/lib/env";
import { getAppSecret } from "@/lib/secrets";
import { singleton, singletonKey } from "@/lib/singleton";

const VERSION = 1;
const FLAG_GZIP = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 2 + IV_BYTES + TAG_BYTES;

export function deriveStateKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "cabin-computer-state", "aes-256-gcm v1", 32));
}

const STATE_KEY = singletonKey<Buffer>("stateKey");

export function stateKey(): Buffer {
  return singleton(STATE_KEY, () => deriveStateKey(getEnv().STATE_ENCRYPTION_KEY ?? getAppSecret()));
}

/** [version, flags, iv(12), tag(16), ciphertext] */
export function sealState(plain: Buffer, associatedData: string, key: Buffer = stateKey()): Buffer {
  // Storage states are JSON (compresses ~5x); desktop snapshots arrive compressed already.
  const compressed = gzipSync(plain, { level: 6 });
  const useGzip = compressed.length < plain.length;
  const body = useGzip ? compressed : plain;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION, useGzip ? FLAG_GZIP : 0]), iv, cipher.getAuthTag(), ciphertext]);
}

export function openState(sealed: Buffer, associatedData: string, key: Buffer = stateKey()): Buffer {
  if (sealed.length < HEADER_BYTES || sealed[0] !== VERSION) {
    throw new Error("Saved state has an unknown format");
  }
  const flags = sealed[1];
  const iv = sealed.subarray(2, 2 + IV_BYTES);
  const tag = sealed.subarray(2 + IV_BYTES, HEADER_BYTES);
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(Buffer.from(associatedData, "utf8"));
  decipher.setAuthTag(tag);
  let body: Buffer;
  try {
    body = Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]);
  } catch {
    throw new Error(
      "Saved state cannot be decrypted (wrong STATE_ENCRYPTION_KEY / app secret, or the data was altered)",
    );
  }
  return flags & FLAG_GZIP ? gunzipSync(body) : body;
}
