"use client";

import { useRouter } from "next/navigation";
import { startTransition } from "react";
import { PageProblem, ProblemLink } from "@/components/shell/page-problem";
import { Button } from "@/components/ui/button";

/** A dashboard page failed while rendering: say so inside the shell, with Retry and a way back. */
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  function retry() {
    // Server components render again on refresh; reset clears the boundary once they have.
    startTransition(() => {
      router.refresh();
      reset();
    });
  }
  return (
    <PageProblem
      code="Error"
      title="This page could not be shown"
      actions={
        <>
          <Button onClick={retry}>Retry</Button>
          <ProblemLink href="/sessions">Back to Sessions</ProblemLink>
        </>
      }
    >
      <p>
        Something went wrong on our side while loading it. Retrying often helps; if it keeps happening, tell your
        operator.
      </p>
      {error.digest && <p className="mt-2 font-mono text-xs text-slate-500">Reference: {error.digest}</p>}
    </PageProblem>
  );
}
