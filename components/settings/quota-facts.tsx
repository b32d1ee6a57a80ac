import type { OrganizationSettings } from "@/components/settings/use-organization-settings";

type Quotas = OrganizationSettings["quotas"];

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <div className="min-w-0 py-3 sm:grid sm:grid-cols-3 sm:gap-4" data-testid={testId}>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-sm text-slate-900 sm:col-span-2 sm:mt-0">{children}</dd>
    </div>
  );
}

const Source = ({ overridden }: { overridden: boolean }) => (
  <span className="text-slate-500">
    {" "}
    — {overridden ? "set for this organization by the operator" : "this server's default"}
  </span>
);

function Use({ inUse, limit }: { inUse: number; limit: number }) {
  const full = inUse >= limit;
  return (
    <span className={full ? "font-medium text-amber-700" : "font-medium text-slate-900"}>
      {inUse} of {limit} in use
    </span>
  );
}

/** Read-only: only the server's operator changes quotas (CLI `org quota`), so a team cannot raise its own. */
export function QuotaFacts({ quotas }: { quotas: Quotas }) {
  return (
    <div>
      <dl className="divide-y divide-slate-100" data-testid="quota-facts">
        <Row label="Browser sessions at once" testId="quota-browser">
          <Use inUse={quotas.browser_sessions.in_use} limit={quotas.browser_sessions.limit} />
          <Source overridden={quotas.browser_sessions.overridden} />
        </Row>
        <Row label="Desktop sessions at once" testId="quota-desktop">
          <Use inUse={quotas.desktop_sessions.in_use} limit={quotas.desktop_sessions.limit} />
          <Source overridden={quotas.desktop_sessions.overridden} />
        </Row>
        <Row label="Sessions created per minute" testId="quota-rate">
          <span className="font-medium text-slate-900">
            {quotas.creates_per_minute.limit === 0 ? "No limit" : quotas.creates_per_minute.limit}
          </span>
          <Source overridden={quotas.creates_per_minute.overridden} />
        </Row>
      </dl>
      <p className="mt-2 text-xs text-slate-500">
        Past a quota, creating a session answers 429 with a <code className="font-mono">retry-after</code>. Ask the
        operator of this server to change a quota.
      </p>
    </div>
  );
}
