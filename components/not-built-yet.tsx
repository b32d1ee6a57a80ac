import { PageHeader } from "@/components/ui/card";
import type { ReactNode } from "react";

/** A page whose feature is not built yet says so plainly, and what works meanwhile. */
export function NotBuiltYet({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <PageHeader title={title} />
      <div className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">
        <p className="font-medium text-slate-900">This page is not built yet.</p>
        <div className="mt-2 space-y-2">{children}</div>
      </div>
    </div>
  );
}
