// The /profiles operations of the OpenAPI document (docs/profiles.md): list, read
// and delete named browser profiles. Sessions and tasks name one in `profile`.
import { z } from "zod";
import { jsonSchema, ok, operation, pathParam, ref, type JsonSchema } from "@/lib/routes/openapi/build";

const name = pathParam("name", "The profile's name (letters, digits, '.', '_', '-'; 1 to 64)", "acme");

const profileObject = z.object({
  name: z.string(),
  size_bytes: z.number().int().describe("Bytes stored (encrypted)"),
  created_at: z.string().describe("ISO 8601 time (UTC)"),
  updated_at: z.string().describe("When a session last saved into it"),
  last_used_at: z.string().describe("When a session last started from or saved into it"),
  in_use_by: z.string().nullable().describe("The session that saves into it now (save_changes), or null"),
});

export const profilesTag = {
  name: "Profiles",
  description: "Named browser profiles (cookies, local storage, IndexedDB) that sessions start from and save into",
  "x-surface": "computers",
};

export function profilesComponents(): Record<string, JsonSchema> {
  return {
    Profile: jsonSchema(profileObject, "output"),
    ProfileList: jsonSchema(z.array(profileObject), "output"),
  };
}

export function profilesPaths(): Record<string, Record<string, unknown>> {
  return {
    "/profiles": {
      get: operation(
        "computers",
        "listProfiles",
        {
          tag: "Profiles",
          summary: "List the organization's profiles, by name",
          responses: { "200": ok("Profiles", ref("ProfileList")) },
        },
        ["401"],
      ),
    },
    "/profiles/{name}": {
      get: operation(
        "computers",
        "getProfile",
        {
          tag: "Profiles",
          summary: "One profile: its size, times and the session saving into it",
          parameters: [name],
          responses: { "200": ok("The profile", ref("Profile")) },
        },
        ["400", "401", "404"],
      ),
      delete: operation(
        "computers",
        "deleteProfile",
        {
          tag: "Profiles",
          summary: "Delete a profile (409 while a session saves into it)",
          parameters: [name],
          responses: { "204": { description: "Deleted" } },
        },
        ["400", "401", "404", "409"],
      ),
    },
  };
}
