// Short secrets at rest (stored models' API keys, the credential vault's values): AES-256-GCM
// under a key the caller derives from the app secret, with associated data binding the text to
// its row, so a sealed value copied onto another row or organization fails to open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const FORMAT = "v1";
const IV_BYTES = 12;

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts: text, so both databases store it as a string. */
export function sealText(plain: string, associatedData: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** Opens what `sealText` sealed; `what` names the value in the errors ("The stored API key …"). */
export function openText(sealed: string, associatedData: string, key: Buffer, what: string): string {
  const [format, iv, tag, ciphertext] = sealed.split(".");
  if (format !== FORMAT || !iv || !tag || ciphertext === undefined)
    throw new Error(`The stored ${what} has an unknown format`);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(associatedData, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error(`The stored ${what} cannot be decrypted (CABIN_SECRET changed, or the row was altered)`);
  }
}
