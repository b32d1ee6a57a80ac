// Operator actions behind `npm run cli`: the first accounts and keys of a
// self-hosted install, scriptable without the dashboard.
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/api/errors";
import { getAuth } from "@/lib/auth/auth";
import { addMember, createOrganization, findOrganizationByName, type Role } from "@/lib/auth/organizations";
import { createApiKey } from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db";

export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

export async function operatorCreateOrg(name: string) {
  return createOrganization({ name });
}

export async function operatorCreateUser(input: {
  email: string;
  password: string;
  name?: string;
  org: string;
  role: Role;
}) {
  const org = await findOrganizationByName(input.org);
  const email = input.email.toLowerCase();
  const existing = await getDb().user.findUnique({ where: { email } });
  if (existing) throw new AppError("conflict", `A user with email ${email} already exists`);
  // No HTTP request here, so the sign-up hook does not create a personal team.
  const { user } = await getAuth().api.signUpEmail({
    body: { email, password: input.password, name: input.name ?? email.split("@")[0] },
  });
  await addMember({ organizationId: org.id, userId: user.id, role: input.role });
  return { user, organization: org };
}

export async function operatorCreateKey(input: { org: string; name?: string }) {
  const org = await findOrganizationByName(input.org);
  return createApiKey({ organizationId: org.id, name: input.name ?? "cli" });
}
