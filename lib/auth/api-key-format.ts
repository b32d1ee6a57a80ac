// Pure functions for the API key format: `cbn_` + 48 base62 characters.
// The first 12 characters are the public prefix (shown in lists, used to
// revoke); the database stores only the SHA-256 of the whole key.
import { hash, randomInt } from "node:crypto";

export const KEY_PREFIX = "cbn_";
const BODY_LENGTH = 48;
const PREFIX_LENGTH = 12;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH}}$`);

export interface GeneratedKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): GeneratedKey {
  let body = "";
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  const key = KEY_PREFIX + body;
  return { key, prefix: prefixOf(key), hash: hashApiKey(key) };
}

/** The one-shot `hash` (Node 20.12+): on every /v1 request, and cheaper than building a Hash object. */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

export function prefixOf(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The key from an `Authorization: Bearer <key>` header, or null when absent or malformed. */
export function bearerKey(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return null;
  return isWellFormedKey(match[1]) ? match[1] : null;
}
