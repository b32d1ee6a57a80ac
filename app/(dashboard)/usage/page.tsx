import { Suspense } from "react";
import { PageHeader } from "@/components/ui/card";
import { UsageDashboard } from "@/components/usage/usage-dashboard";

export const metadata = { title: "Usage" };

export default function UsagePage() {
  return (
    <div>
      <PageHeader
        title="Usage"
        description={
          "Model API requests (tokens and cost at each model's per-million prices) and browser and desktop " +
          "session time of this organization. The range is part of the address, so a link shows the same view."
        }
      />
      {/* The range lives in the query string (useSearchParams). */}
      <Suspense>
        <UsageDashboard />
      </Suspense>
    </div>
  );
}
