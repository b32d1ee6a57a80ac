import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { CreateTeamForm } from "@/components/settings/create-team-form";
import { currentVisitor } from "@/lib/auth/member";
import { loginRedirectFor } from "@/lib/auth/request-path";

export const metadata = { title: "Create a team" };
export const dynamic = "force-dynamic";

/** Someone in no team lands here; a member may come too (to start another team), and is told they have one. */
export default async function CreateTeamPage() {
  const requestHeaders = await headers();
  const visitor = await currentVisitor(requestHeaders);
  if (visitor === "logged-out") redirect(loginRedirectFor(requestHeaders));
  return <CreateTeamForm member={visitor !== "no-team"} />;
}
