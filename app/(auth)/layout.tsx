import type { ReactNode } from "react";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <p className="mb-6 text-center text-lg font-semibold tracking-tight text-slate-900">
          <span aria-hidden>▣</span> Cabin
        </p>
        {children}
      </div>
    </main>
  );
}
