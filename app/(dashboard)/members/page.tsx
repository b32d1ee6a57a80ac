import { headers } from "next/headers";
import { InviteForm } from "@/components/members/invite-form";
import { MemberList } from "@/components/members/member-list";
import { Card, PageHeader } from "@/components/ui/card";
import { currentMember } from "@/lib/auth/member";
import { invitableRoles } from "@/lib/auth/member-permissions";

export const metadata = { title: "Members" };

const MANAGER = "Invite people with a link (no mail server needed), change their roles and remove members.";
const VIEWER = "The people in this organization. Owners and admins invite, change roles and remove members.";

export default async function MembersPage() {
  const member = await currentMember(await headers());
  const roles = member ? invitableRoles(member.role) : [];
  return (
    <div className="space-y-6">
      <PageHeader title={metadata.title} description={roles.length > 0 ? MANAGER : VIEWER} />
      {roles.length > 0 && (
        <Card title="Invite someone">
          <InviteForm roles={roles} />
        </Card>
      )}
      <Card title="Members of this organization">
        <MemberList />
      </Card>
    </div>
  );
}
