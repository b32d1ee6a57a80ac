import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { currentMember } from "@/lib/auth/member";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const member = await currentMember(await headers());
  if (!member) redirect("/login");
  return <AppShell>{children}</AppShell>;
}
