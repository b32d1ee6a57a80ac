import { CreateKeyForm } from "@/components/keys/create-key-form";
import { KeyTable } from "@/components/keys/key-table";
import { Card, PageHeader } from "@/components/ui/card";

export const metadata = { title: "API keys" };

export default function KeysPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="One key authenticates both the sessions API (/computers) and the model API (/v1). Send it as “Authorization: Bearer <key>”."
      />
      <Card title="Create a key">
        <CreateKeyForm />
      </Card>
      <Card title="Keys of this organization">
        <KeyTable />
      </Card>
    </div>
  );
}
