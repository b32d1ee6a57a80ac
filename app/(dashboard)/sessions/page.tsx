import { headers } from "next/headers";
import { NewSessionButton } from "@/components/sessions/new-session-button";
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
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageHeader
          title="Sessions"
          description={
            "Browser and desktop sessions of this organization, live ones first. " + "The list refreshes by itself."
          }
        />
        <NewSessionButton />
      </div>
      <Card title="Sessions">
        <SessionList origin={origin} />
      </Card>
    </div>
  );
}
