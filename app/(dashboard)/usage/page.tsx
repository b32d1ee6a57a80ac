import { PageHeader } from "@/components/ui/card";
import { UsageDashboard } from "@/components/usage/usage-dashboard";

export const metadata = { title: "Usage" };

export default function UsagePage() {
  return (
    <div>
      <PageHeader
        title="Usage"
        description="Model API requests of this organization over the last 30 days: tokens and cost at each model's per-million prices."
      />
      <UsageDashboard />
    </div>
  );
}
