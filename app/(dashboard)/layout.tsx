import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { currentVisitor } from "@/lib/auth/member";
import { loginRedirectFor } from "@/lib/auth/request-path";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const requestHeaders = await headers();
  const visitor = await currentVisitor(requestHeaders);
  // Login brings the visitor back to the page they asked for; someone in no team makes one first.
  if (visitor === "logged-out") redirect(loginRedirectFor(requestHeaders));
  if (visitor === "no-team") redirect("/create-team");
  return <AppShell>{children}</AppShell>;
}
