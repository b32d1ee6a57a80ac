import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { TakeoverView } from "@/components/handoff/takeover-view";
import { openTakeover } from "@/lib/agent/handoff";
import { isAppError } from "@/lib/api/errors";
import { publicOrigin } from "@/lib/api/public-url";

export const dynamic = "force-dynamic";
export const metadata = { title: "Take over a task", robots: { index: false, follow: false } };

/**
 * /takeover/{task}?token=…: a hand-off's signed link (docs/agent-tasks.md "Hand-off to a person"). A link
 * that is forged, expired or whose hand-off is over is a 404 saying so (not-found.tsx).
 */
export default async function TakeoverRoute({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const [{ id }, { token }] = await Promise.all([params, searchParams]);
  const given = typeof token === "string" ? token : null;
  let view: Awaited<ReturnType<typeof openTakeover>>;
  try {
    view = await openTakeover({ taskId: id, token: given, origin: publicOrigin(await headers()) });
  } catch (err) {
    if (isAppError(err) && err.code === "unauthorized") notFound();
    if (isAppError(err) && err.code === "conflict")
      return (
        <p role="alert" className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
          The task's session has ended, so there is nothing to take over.
        </p>
      );
    throw err;
  }
  return <TakeoverView view={view} token={given!} />;
}
