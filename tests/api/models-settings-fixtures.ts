// Dashboard users for the Settings → Models API tests.
import { expect } from "vitest";
import { signUp, type DashboardUser } from "./session-client";

export { startKeyCheckingUpstream, UPSTREAM_KEY, type KeyCheckingUpstream } from "./key-checking-upstream";

/** A new organization's owner, with an API key of it. */
export async function ownerWithKey(name: string) {
  const user = await signUp(name);
  const created = await user.request("POST", "/api/keys", { name: `${name} key` });
  expect(created.status).toBe(201);
  return { user, key: created.body.key as string };
}

/** A member of `owner`'s organization, through an invitation accepted with Better Auth's own endpoints. */
export async function addMember(owner: DashboardUser, role: "member" | "admin") {
  const orgId = (await owner.request("GET", "/api/me")).body.organization.id as string;
  const invitee = await signUp("Invitee");
  const invite = await owner.request("POST", "/api/auth/organization/invite-member", {
    email: invitee.email,
    role,
    organizationId: orgId,
  });
  expect(invite.status).toBe(200);
  const accepted = await invitee.request("POST", "/api/auth/organization/accept-invitation", {
    invitationId: invite.body.id,
  });
  expect(accepted.status).toBe(200);
  await invitee.request("POST", "/api/auth/organization/set-active", { organizationId: orgId });
  expect((await invitee.request("GET", "/api/me")).body.role).toBe(role);
  return invitee;
}
