// One-time codes for the credential vault (docs/credentials.md "One-time codes"):
// RFC 4226 HOTP and RFC 6238 TOTP over HMAC, and the base32 secrets authenticator
// apps are given. Pure functions: the clock is an argument.
import { createHmac } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** A base32 secret as sites show it: case, spaces, dashes and `=` padding do not matter. */
export function normalizeBase32(text: string): string {
  return text.replace(/[\s-]/g, "").replace(/=+$/, "").toUpperCase();
}

/** The bytes of a base32 secret, or null when a character is not base32 (RFC 4648 alphabet). */
export function decodeBase32(text: string): Buffer | null {
  const clean = normalizeBase32(text);
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}

export type TotpAlgorithm = "sha1" | "sha256" | "sha512";

/** RFC 4226 section 5.3: HMAC of the 8-byte counter, dynamically truncated to `digits` decimal digits. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm: TotpAlgorithm = "sha1"): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

export interface TotpOptions {
  /** Seconds since the epoch. */
  at: number;
  periodSeconds?: number;
  digits?: number;
  algorithm?: TotpAlgorithm;
}

/**
 * RFC 6238: HOTP of the number of whole periods since the epoch (defaults: 30 s, 6 digits, SHA-1, as authenticator apps
 * use).
 */
export function totp(key: Buffer, options: TotpOptions): string {
  const period = options.periodSeconds ?? 30;
  return hotp(key, Math.floor(options.at / period), options.digits ?? 6, options.algorithm ?? "sha1");
}
