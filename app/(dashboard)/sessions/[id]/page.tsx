import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { SessionPage } from "@/components/session/session-page";
import { currentMember } from "@/lib/auth/member";
import { sessionExistsFor } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Session ${(await params).id}` };
}

/** An id this organization does not have is an HTTP 404 (the shell's not-found page), not a 200 that says so. */
export default async function SessionRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const member = await currentMember(await headers());
  if (member && !(await sessionExistsFor(member, id))) notFound();
  return <SessionPage id={id} />;
}
