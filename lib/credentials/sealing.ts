// Credential values at rest: AES-256-GCM under a key derived (HKDF) from the app
// secret (CABIN_SECRET, `getAppSecret`), with the organization and row as
// associated data, so sealed values copied onto another row or organization fail
// to open. Its own HKDF label: the vault's key is not the stored models' key
// (`deriveModelKeysKey`), though both come from the same secret.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getAppSecret } from "@/lib/secrets";
import { singleton, singletonKey } from "@/lib/singleton";

const FORMAT = "v1";
const IV_BYTES = 12;

export function deriveVaultKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "cabin-credential-vault", "aes-256-gcm v1", 32));
}

const KEY = singletonKey<Buffer>("credentials.vaultKey");
const vaultKey = () => singleton(KEY, () => deriveVaultKey(getAppSecret()));

/** The associated data binding sealed values to their row. */
export const rowBinding = (organizationId: string, rowId: string, part: "values" | "totp") =>
  `${organizationId}/${rowId}/${part}`;

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts: text, so both databases store it as a string. */
export function seal(plain: string, associatedData: string, key: Buffer = vaultKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function unseal(sealed: string, associatedData: string, key: Buffer = vaultKey()): string {
  const [format, iv, tag, ciphertext] = sealed.split(".");
  if (format !== FORMAT || !iv || !tag || ciphertext === undefined)
    throw new Error("The stored credential has an unknown format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(associatedData, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("The stored credential cannot be decrypted (CABIN_SECRET changed, or the row was altered)");
  }
}
