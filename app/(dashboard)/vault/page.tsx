import { CredentialsView } from "@/components/credentials/credentials-view";
import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "Credentials" };

const DESCRIPTION =
  "Logins that sessions and agent tasks fill into login forms by name (the fill_credentials action), with " +
  "one-time codes. The values never leave the vault: not to the model, not to this page.";

export default function CredentialsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title={metadata.title} description={DESCRIPTION} />
      <CredentialsView />
    </div>
  );
}
