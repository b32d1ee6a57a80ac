// The `profile` object of a session or task start (docs/profiles.md), and the
// rule for profile names. Pure: the create body, the agent schema and MCP's
// tools all parse the same shape.
import { z } from "zod";

export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const profileNameSchema = z
  .string({ error: "must be a string" })
  .regex(PROFILE_NAME_PATTERN, "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");

export const profileRefSchema = z.strictObject({
  name: profileNameSchema.describe("The profile's name; a save_changes session creates it when it does not exist"),
  save_changes: z
    .boolean()
    .optional()
    .describe("Write cookies, local storage and IndexedDB back into the profile (one writer at a time)"),
});

export type ProfileRefBody = z.infer<typeof profileRefSchema>;

/** A session's profile once parsed: which one, and whether the session saves into it. */
export interface ProfileRef {
  name: string;
  saveChanges: boolean;
}

export function toProfileRef(body: ProfileRefBody): ProfileRef {
  return { name: body.name, saveChanges: body.save_changes ?? false };
}
