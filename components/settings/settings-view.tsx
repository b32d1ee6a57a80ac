"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DangerZone } from "@/components/settings/danger-zone";
import { OperatorFacts } from "@/components/settings/operator-facts";
import { QuotaFacts } from "@/components/settings/quota-facts";
import { OrganizationForm } from "@/components/settings/organization-form";
import { useOrganizationSettings } from "@/components/settings/use-organization-settings";

const ROLE_NOTE = {
  owner: "You are an owner: you can rename, leave (if another owner remains) or delete this organization.",
  admin: "You are an admin: you can rename this organization or leave it.",
  member: "You are a member: the settings are read-only for you; you can leave the organization.",
};

export function SettingsView() {
  const settings = useOrganizationSettings();
  if (settings.error) {
    return (
      <div
        role="alert"
        className={
          "flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm " +
          "text-red-800"
        }
      >
        <p className="flex-1">The settings could not be loaded: {settings.error.message}</p>
        <Button variant="secondary" onClick={() => void settings.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  if (!settings.data) {
    return (
      <div aria-busy="true" aria-label="Loading settings" className="space-y-6">
        {[160, 260, 180].map((h) => (
          <div key={h} style={{ height: h }} className="animate-pulse rounded-lg border border-slate-200 bg-slate-50" />
        ))}
      </div>
    );
  }
  const data = settings.data;
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600" data-testid="settings-role">
        {ROLE_NOTE[data.role]}
      </p>
      <Card title="Organization">
        <OrganizationForm settings={data} />
      </Card>
      <Card title="Quotas">
        <QuotaFacts quotas={data.quotas} />
      </Card>
      <Card title="This server">
        <OperatorFacts facts={data.facts} />
      </Card>
      <Card title="Leave or delete">
        <DangerZone settings={data} />
      </Card>
    </div>
  );
}
