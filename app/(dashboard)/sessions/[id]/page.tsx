import { SessionToolsPage } from "@/components/session-tools/session-tools-page";
import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "Session" };
export const dynamic = "force-dynamic";

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <div>
      <PageHeader title="Session" description="Connect your own automation, run commands and follow what happens on this session." />
      <SessionToolsPage id={id} />
    </div>
  );
}
