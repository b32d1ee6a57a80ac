import { InviteForm } from "@/components/members/invite-form";
import { MemberList } from "@/components/members/member-list";
import { Card, PageHeader } from "@/components/ui/card";

export const metadata = { title: "Members" };

export default function MembersPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Members"
        description="Owners and admins invite people with a link (no mail server needed), change roles and remove members."
      />
      <Card title="Invite someone">
        <InviteForm />
      </Card>
      <Card title="Members of this organization">
        <MemberList />
      </Card>
    </div>
  );
}
