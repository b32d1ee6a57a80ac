// The bodies of POST /credentials and PUT /credentials/{name} (docs/credentials.md):
// every field checked, a bad one a 400 naming it. Messages never repeat a value.
import { isIP } from "node:net";
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { textWithoutNul } from "@/lib/api/request";
import { normalizeHost } from "@/lib/credentials/host-match";
import { decodeBase32, normalizeBase32 } from "@/lib/credentials/totp";

export const CREDENTIAL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const MAX_FIELDS = 16;
/** RFC 4226 asks for at least 128 bits; sites hand out 80 (16 base32 characters) at the least. */
const MIN_TOTP_BYTES = 10;

export const credentialName = z
  .string({ error: "must be a string" })
  .regex(CREDENTIAL_NAME, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name (or address): `example.com`, `login.example.com`; a URL is reduced to its host. */
const domain = z
  .string({ error: "must be a string" })
  .max(300)
  .transform((value, ctx) => {
    let host = value;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
      try {
        host = new URL(value).hostname;
      } catch {
        host = "";
      }
    }
    host = normalizeHost(host);
    const valid =
      isIP(host) !== 0 || (host.length <= 253 && host.split(".").every((label) => LABEL.test(label)) && host !== "");
    if (!valid) {
      ctx.addIssue({
        code: "custom",
        message: "must be a host name such as example.com (its subdomains are included), without path or port",
      });
      return z.NEVER;
    }
    return host;
  });

const values = z
  .record(
    z.string().regex(FIELD_NAME, "value names are 1-32 lower-case letters, digits or '_' (username, password, …)"),
    textWithoutNul(4096, 1),
    { error: 'must be an object of strings, such as {"username": …, "password": …}' },
  )
  .refine((v) => Object.keys(v).length >= 1, "give at least one value (username, password, …)")
  .refine((v) => Object.keys(v).length <= MAX_FIELDS, `at most ${MAX_FIELDS} values`);

const totpSecret = z
  .string({ error: "must be a base32 string" })
  .max(256)
  .transform((value, ctx) => {
    const bytes = decodeBase32(value);
    if (!bytes || bytes.length < MIN_TOTP_BYTES) {
      ctx.addIssue({
        code: "custom",
        message: `must be the base32 secret the site shows for authenticator apps (A-Z, 2-7; at least 16 characters)`,
      });
      return z.NEVER;
    }
    return normalizeBase32(value);
  });

const contents = { domain, values, totp_secret: totpSecret.nullable().optional() };

export const createCredentialBody = z.strictObject({ name: credentialName, ...contents });
/** PUT replaces what the credential holds (a rotated password is a PUT with the new values); the name stays. */
export const replaceCredentialBody = z.strictObject(contents);

export type CreateCredentialBody = z.output<typeof createCredentialBody>;
export type ReplaceCredentialBody = z.output<typeof replaceCredentialBody>;

/** A name from the URL path: anything else cannot exist, so it is a 404 like an unknown one. */
export function assertCredentialName(name: string): string {
  if (!CREDENTIAL_NAME.test(name))
    throw new AppError("not_found", "No such credential in this organization", { param: "name" });
  return name;
}
