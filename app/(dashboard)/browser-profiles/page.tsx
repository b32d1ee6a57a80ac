import { ProfileTable } from "@/components/profiles/profile-table";
import { Card, PageHeader } from "@/components/ui/card";

export const metadata = { title: "Profiles" };

const DESCRIPTION =
  "Named browser profiles: cookies (session cookies too), local storage and IndexedDB that sessions and tasks " +
  "start from. A session with “Save changes” writes its changes back when it ends; one such session at a time. " +
  "Unused profiles expire.";

export default function ProfilesPage() {
  return (
    <div className="space-y-6">
      <PageHeader title={metadata.title} description={DESCRIPTION} />
      <Card title="Profiles of this organization">
        <ProfileTable />
      </Card>
    </div>
  );
}
