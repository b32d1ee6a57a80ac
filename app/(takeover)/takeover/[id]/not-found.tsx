export const metadata = { title: "Link not valid" };

/** What a refused take-over link shows (its status is 404). */
export default function TakeoverLinkRefused() {
  return (
    <div className="mx-auto max-w-lg space-y-2 py-12 text-center" data-testid="takeover-refused">
      <p className="font-mono text-sm font-semibold text-brand-600">404</p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">This take-over link does not work</h1>
      <p className="text-sm text-slate-600">
        It has expired, the task no longer waits for a person, or the link was never issued. Whoever sent it can read
        the task again for a fresh link, or open the task in the dashboard.
      </p>
    </div>
  );
}
