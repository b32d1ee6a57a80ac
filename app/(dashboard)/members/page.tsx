import { InviteForm } from "@/components/members/invite-form";
import { MemberList } from "@/components/members/member-list";
import { ManagePage } from "@/components/ui/card";

export const metadata = { title: "Members" };

const DESCRIPTION = "Owners and admins invite people with a link (no mail server needed), change roles and remove members.";

export default function MembersPage() {
  return <ManagePage title={metadata.title} description={DESCRIPTION} form={["Invite someone", <InviteForm />]} list={["Members of this organization", <MemberList />]} />;
}
