import { headers } from "next/headers";
import { Playground } from "@/components/playground/playground";
import { PageHeader } from "@/components/ui/card";
import { publicOrigin } from "@/lib/api/public-url";
import { currentMember } from "@/lib/auth/member";
import { playgroundModels } from "@/lib/models/playground";

export const metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

export default async function PlaygroundPage() {
  // The URL people reach this server by, for the code shown under "View code".
  const requestHeaders = await headers();
  const origin = publicOrigin(requestHeaders);
  // The organization's own models (Settings → Models) sit beside the server's.
  const member = await currentMember(requestHeaders);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Playground"
        description={
          "Chat with this server's models. Requests go through the same model layer as /v1 and count toward your " +
          "organization's usage and budget."
        }
      />
      <Playground models={playgroundModels(member?.organizationId)} origin={origin} />
    </div>
  );
}
