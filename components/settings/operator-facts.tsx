import type { OrganizationSettings } from "@/components/settings/use-organization-settings";

function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 py-3 sm:grid sm:grid-cols-3 sm:gap-4" data-testid={testId}>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-sm text-slate-900 sm:col-span-2 sm:mt-0">{children}</dd>
    </div>
  );
}

const Yes = ({ children }: { children: string }) => <span className="font-medium text-emerald-700">{children}</span>;
const No = ({ children }: { children: string }) => <span className="font-medium text-slate-700">{children}</span>;

/** What this server's operator set up, as a team needs to know it: no URLs, no credentials. */
export function OperatorFacts({ facts }: { facts: OrganizationSettings["facts"] }) {
  return (
    <dl className="divide-y divide-slate-100" data-testid="operator-facts">
      <Fact label="Maximum session lifetime" testId="fact-max-lifetime">
        {duration(facts.plan_max_lifetime_seconds)}{" "}
        <span className="text-slate-500">
          ({facts.plan_max_lifetime_seconds} s, the default and the cap of{" "}
          <code className="font-mono">timeout_seconds</code>)
        </span>
      </Fact>
      <Fact label="Advanced proxy" testId="fact-proxy">
        {facts.proxy_configured ? <Yes>Configured</Yes> : <No>Not configured</No>}
        <span className="text-slate-500">
          {" "}
          — {facts.proxy_configured ? "sessions may set use_advanced_proxy" : "use_advanced_proxy is refused"}
        </span>
      </Fact>
      <Fact label="Desktop sessions" testId="fact-desktop">
        {facts.desktop.available ? <Yes>Available</Yes> : <No>Not available</No>}
        {facts.desktop.reason && <p className="mt-1 text-xs text-slate-500">{facts.desktop.reason}</p>}
      </Fact>
      <Fact label="CDP endpoint" testId="fact-cdp">
        {facts.cdp_offered ? <Yes>Offered</Yes> : <No>Not offered</No>}
        <span className="text-slate-500">
          {" "}
          —{" "}
          {facts.cdp_offered
            ? "browser sessions carry endpoints.cdp for Playwright or Puppeteer"
            : "drive sessions through the actions API and the live view"}
        </span>
      </Fact>
      <Fact label="Models" testId="fact-models">
        {facts.models.length === 0 ? (
          <No>None configured</No>
        ) : (
          <ul className="space-y-1">
            {facts.models.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center gap-2">
                <code className="break-all font-mono">{m.id}</code>
                <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                  {m.backend === "local" ? "local" : "upstream"}
                </span>
                {m.placeholder && (
                  <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">placeholder</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </Fact>
    </dl>
  );
}
