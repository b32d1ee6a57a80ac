import { CreateKeyForm } from "@/components/keys/create-key-form";
import { KeyTable } from "@/components/keys/key-table";
import { ManagePage } from "@/components/ui/card";

export const metadata = { title: "API keys" };

const DESCRIPTION =
  "One key authenticates both the sessions API (/computers) and the model API (/v1). Send it as “Authorization: " +
  "Bearer <key>”.";

export default function KeysPage() {
  return (
    <ManagePage
      title={metadata.title}
      description={DESCRIPTION}
      form={["Create a key", <CreateKeyForm />]}
      list={["Keys of this organization", <KeyTable />]}
    />
  );
}
