import type { ReactNode } from "react";

/** The take-over page's frame: no dashboard shell, no login (its link's token is the access). */
export default function TakeoverLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="mx-auto max-w-6xl space-y-4 px-4 py-6">
      <p className="text-lg font-semibold tracking-tight text-slate-900">
        <span aria-hidden>▣</span> Cabin
      </p>
      {children}
    </main>
  );
}
