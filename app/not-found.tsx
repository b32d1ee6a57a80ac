import { headers } from "next/headers";
import { AppShell } from "@/components/shell/app-shell";
import { NotFoundProblem, PlainFrame } from "@/components/shell/page-problem";
import { currentMember } from "@/lib/auth/member";

export const metadata = { title: "Page not found" };

/** Any unknown address: inside the dashboard's shell for a logged-in member, plain otherwise. */
export default async function NotFound() {
  const member = await currentMember(await headers());
  if (member) {
    return (
      <AppShell>
        <NotFoundProblem loggedIn />
      </AppShell>
    );
  }
  return (
    <PlainFrame>
      <NotFoundProblem loggedIn={false} />
    </PlainFrame>
  );
}
