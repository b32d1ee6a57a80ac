"use client";

import { CreateCredentialForm } from "@/components/credentials/create-credential-form";
import { CredentialList } from "@/components/credentials/credential-list";
import { Card } from "@/components/ui/card";
import { useMe } from "@/components/shell/use-me";

/** Owners get the form; every member the list (members: names only). */
export function CredentialsView() {
  const me = useMe();
  return (
    <div className="space-y-6">
      {me.data?.role === "owner" && (
        <Card title="Store a credential">
          <CreateCredentialForm />
        </Card>
      )}
      <Card title="Credentials of this organization">
        <CredentialList />
      </Card>
    </div>
  );
}
