// @needs server light postgres
// Signing up from an invitation link (the form sends x-cabin-invitation): the
// new account joins the inviting team and gets no team of its own, but only
// for a pending invitation addressed to that very email.
import { describe, expect, inject, it } from "vitest";
import { signUp } from "./session-client";

let counter = 0;

async function signUpWithInvitation(email: string, invitationId: string) {
  const base = inject("baseUrl");
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "x-cabin-invitation": invitationId },
    body: JSON.stringify({ email, password: "correct horse battery", name: "Invitee" }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const me = await fetch(`${base}/api/me`, { headers: { cookie } });
  return (await me.json()) as {
    organization: { id: string; name: string };
    role: string;
    organizations: { id: string }[];
  };
}

async function invite(owner: Awaited<ReturnType<typeof signUp>>, email: string, role = "admin") {
  const me = await owner.request("GET", "/api/me");
  const created = await owner.request("POST", "/api/auth/organization/invite-member", {
    email,
    role,
    organizationId: me.body.organization.id,
  });
  expect(created.status).toBe(200);
  return { invitationId: created.body.id as string, organizationId: me.body.organization.id as string };
}

const freshEmail = () => `invitee${Date.now()}-${counter++}@example.test`;

describe("sign-up from an invitation link", () => {
  it("joins the inviting team with the invited role, and no other team", async () => {
    const owner = await signUp("Iris");
    const email = freshEmail();
    const { invitationId, organizationId } = await invite(owner, email);
    const me = await signUpWithInvitation(email, invitationId);
    expect(me.organization).toMatchObject({ id: organizationId, name: "Iris's team" });
    expect(me.role).toBe("admin");
    expect(me.organizations.map((o) => o.id)).toEqual([organizationId]);
    // The invitation is used up: the team lists the new member and no pending invitation.
    const full = await owner.request(
      "GET",
      `/api/auth/organization/get-full-organization?organizationId=${organizationId}`,
    );
    expect(full.body.members.map((m: { user: { email: string } }) => m.user.email)).toContain(email);
    expect(full.body.invitations.find((i: { id: string }) => i.id === invitationId).status).toBe("accepted");
  });

  it("ignores an invitation addressed to someone else: a team of their own instead", async () => {
    const owner = await signUp("Jonas");
    const { invitationId, organizationId } = await invite(owner, freshEmail());
    const me = await signUpWithInvitation(freshEmail(), invitationId);
    expect(me.organization.id).not.toBe(organizationId);
    expect(me.role).toBe("owner");
    expect(me.organizations).toHaveLength(1);
  });

  it("ignores an unknown invitation id", async () => {
    const me = await signUpWithInvitation(freshEmail(), "no-such-invitation");
    expect(me.role).toBe("owner");
    expect(me.organizations).toHaveLength(1);
  });
});
