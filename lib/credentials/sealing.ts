// Credential values at rest: AES-256-GCM under a key derived (HKDF) from the app
// secret (CABIN_SECRET, `getAppSecret`), with the organization and row as
// associated data, so sealed values copied onto another row or organization fail
// to open. Its own HKDF label: the vault's key is not the stored models' key
// (`deriveModelKeysKey`), though both come from the same secret.
import { hkdfSync } from "node:crypto";
import { openText, sealText } from "@/lib/sealed-text";
import { getAppSecret } from "@/lib/secrets";
import { singleton, singletonKey } from "@/lib/singleton";

export function deriveVaultKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "cabin-credential-vault", "aes-256-gcm v1", 32));
}

const KEY = singletonKey<Buffer>("credentials.vaultKey");
const vaultKey = () => singleton(KEY, () => deriveVaultKey(getAppSecret()));

/** The associated data binding sealed values to their row. */
export const rowBinding = (organizationId: string, rowId: string, part: "values" | "totp") =>
  `${organizationId}/${rowId}/${part}`;

/** `v1.<iv>.<tag>.<ciphertext>` (`sealText`). */
export function seal(plain: string, associatedData: string, key: Buffer = vaultKey()): string {
  return sealText(plain, associatedData, key);
}

export function unseal(sealed: string, associatedData: string, key: Buffer = vaultKey()): string {
  return openText(sealed, associatedData, key, "credential");
}
