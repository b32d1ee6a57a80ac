import { SessionPage } from "@/components/session/session-page";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Session ${(await params).id}` };
}

export default async function SessionRoute({ params }: { params: Promise<{ id: string }> }) {
  return <SessionPage id={(await params).id} />;
}
