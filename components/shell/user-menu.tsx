"use client";

import { useRouter } from "next/navigation";
import { useMe } from "@/components/shell/use-me";
import { Button } from "@/components/ui/button";
import { authClient } from "@/lib/auth/client";

export function UserMenu() {
  const { data } = useMe();
  const router = useRouter();
  async function signOut() {
    await authClient.signOut();
    router.replace("/login");
    router.refresh();
  }
  return (
    <div className="flex min-w-0 items-center justify-between gap-2 text-sm">
      {data && (
        <span className="min-w-0 truncate text-slate-600" data-testid="current-user" title={data.user.email}>
          {data.user.email} · <span className="capitalize">{data.role}</span>
        </span>
      )}
      <Button variant="ghost" onClick={signOut} className="shrink-0 whitespace-nowrap">
        Log out
      </Button>
    </div>
  );
}
