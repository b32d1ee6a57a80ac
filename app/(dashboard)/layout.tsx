import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { currentMember } from "@/lib/auth/member";
import { loginRedirectFor } from "@/lib/auth/request-path";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const requestHeaders = await headers();
  const member = await currentMember(requestHeaders);
  // Login brings the visitor back to the page they asked for.
  if (!member) redirect(loginRedirectFor(requestHeaders));
  return <AppShell>{children}</AppShell>;
}
