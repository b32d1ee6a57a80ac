import { ModelsView } from "@/components/settings/models/models-view";
import { SettingsTabs } from "@/components/settings/models/settings-tabs";
import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "Models" };

export default function ModelSettingsPage() {
  return (
    <div>
      <PageHeader
        title="Settings"
        description={
          "Upstream models this organization's owners set up: served to its API keys, the Playground and tasks, " +
          "on every node."
        }
      />
      <SettingsTabs current="/settings/models" />
      <ModelsView />
    </div>
  );
}
