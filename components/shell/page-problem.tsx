import Link from "next/link";
import type { ReactNode } from "react";

/**
 * A whole-page problem (not found, an error): a code, a heading in plain
 * words, what to do, and the ways on. Used inside the dashboard's shell and,
 * for visitors who are not logged in, on its own.
 */
export function PageProblem({
  code,
  title,
  children,
  actions,
}: {
  code: string;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-lg py-12 text-center" data-testid="page-problem">
      <p className="font-mono text-sm font-semibold text-brand-600">{code}</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <div className="mt-3 text-sm text-slate-600">{children}</div>
      <div className="mt-6 flex flex-wrap items-center justify-center gap-3">{actions}</div>
    </div>
  );
}

export function ProblemLink({
  href,
  children,
  primary = false,
}: {
  href: string;
  children: ReactNode;
  primary?: boolean;
}) {
  const look = primary
    ? "bg-brand-600 text-white hover:bg-brand-700"
    : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100";
  return (
    <Link href={href} className={`rounded-md px-3 py-2 text-sm font-medium ${look}`}>
      {children}
    </Link>
  );
}

/** The 404 text and ways back, the same inside and outside the shell. */
export function NotFoundProblem({ loggedIn }: { loggedIn: boolean }) {
  return (
    <PageProblem
      code="404"
      title="This page does not exist"
      actions={
        loggedIn ? (
          <>
            <ProblemLink href="/sessions" primary>
              Back to Sessions
            </ProblemLink>
            <ProblemLink href="/playground">Open the Playground</ProblemLink>
          </>
        ) : (
          <ProblemLink href="/login" primary>
            Go to the login page
          </ProblemLink>
        )
      }
    >
      <p>The address may be mistyped, or what it pointed to was removed.</p>
    </PageProblem>
  );
}

/** Outside the shell (logged out, or the root error page): the logo above a problem. */
export function PlainFrame({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-full flex-col items-center justify-center px-4 py-12">
      <Link href="/" className="text-lg font-semibold tracking-tight text-slate-900">
        <span aria-hidden>▣</span> Cabin
      </Link>
      {children}
    </main>
  );
}
