import { headers } from "next/headers";
import { NewSessionForm } from "@/components/sessions/new-session-form";
import { SessionList } from "@/components/sessions/session-list";
import { Card, PageHeader } from "@/components/ui/card";
import { publicOrigin } from "@/lib/api/public-url";

export const metadata = { title: "Sessions" };
export const dynamic = "force-dynamic";

export default async function SessionsPage() {
  // The URL people reach this server by, for the curl shown when there is no session yet.
  const origin = publicOrigin(await headers());
  return (
    <div className="space-y-6">
      <PageHeader title="Sessions" description="Browser and desktop sessions of this organization, live ones first. The list refreshes by itself." />
      <Card title="New session">
        <NewSessionForm />
      </Card>
      <Card title="Sessions">
        <SessionList origin={origin} />
      </Card>
    </div>
  );
}
