// The credential vault's operations in the OpenAPI document (docs/credentials.md):
// what is stored goes in; names, domains and value names come out, never values.
import { z } from "zod";
import { jsonSchema, ok, operation, pathParam, ref, requestBody, type JsonSchema } from "@/lib/routes/openapi/build";
import { createCredentialBody, replaceCredentialBody } from "@/lib/credentials/credential-input";

const name = pathParam("name", "The credential's name", "acme");

const credential = z.object({
  name: z.string(),
  domain: z.string().describe("Its values are filled only on this host or a subdomain of it"),
  fields: z.array(z.string()).describe("The names of its values (username, password, …); the values are never shown"),
  has_totp: z.boolean().describe("Whether it holds a TOTP secret, for one-time codes"),
  created_at: z.string().describe("ISO 8601 time (UTC)"),
  updated_at: z.string().describe("ISO 8601 time (UTC)"),
});

export const credentialsTag = {
  name: "Credentials",
  description: "A vault of logins that fill_credentials types into login forms; no answer ever carries a value",
  "x-surface": "computers",
};

export function credentialsComponents(): Record<string, JsonSchema> {
  return {
    Credential: jsonSchema(credential, "output"),
    CredentialList: jsonSchema(z.object({ data: z.array(credential) }), "output"),
  };
}

const EXAMPLE = {
  name: "acme",
  domain: "acme.example",
  values: { username: "ada@acme.example", password: "correct horse battery staple" },
  totp_secret: "JBSWY3DPEHPK3PXP",
};

export function credentialsPaths(): Record<string, Record<string, unknown>> {
  const tag = credentialsTag.name;
  return {
    "/credentials": {
      post: operation(
        "computers",
        "createCredential",
        {
          tag,
          summary: "Store a login",
          description:
            "Values are sealed (AES-256-GCM under CABIN_SECRET) and never shown again; `totp_secret` is the " +
            "base32 secret a site gives authenticator apps. 409 when the name is taken.",
          requestBody: requestBody(jsonSchema(createCredentialBody), true, EXAMPLE),
          responses: { "201": ok("The stored credential, without its values", ref("Credential")) },
        },
        ["400", "401", "409", "413"],
      ),
      get: operation(
        "computers",
        "listCredentials",
        {
          tag,
          summary: "List the organization's credentials (names, domains, value names)",
          responses: { "200": ok("Credentials by name", ref("CredentialList")) },
        },
        ["401"],
      ),
    },
    "/credentials/{name}": {
      get: operation(
        "computers",
        "getCredential",
        {
          tag,
          summary: "One credential, without its values",
          parameters: [name],
          responses: { "200": ok("The credential", ref("Credential")) },
        },
        ["401", "404"],
      ),
      put: operation(
        "computers",
        "replaceCredential",
        {
          tag,
          summary: "Replace a credential's domain, values and TOTP secret (rotate a password)",
          parameters: [name],
          requestBody: requestBody(jsonSchema(replaceCredentialBody), true, {
            domain: EXAMPLE.domain,
            values: EXAMPLE.values,
          }),
          responses: { "200": ok("The credential, without its values", ref("Credential")) },
        },
        ["400", "401", "404", "413"],
      ),
      delete: operation(
        "computers",
        "deleteCredential",
        {
          tag,
          summary: "Delete a credential",
          parameters: [name],
          responses: { "204": { description: "Deleted" } },
        },
        ["401", "404"],
      ),
    },
  };
}
