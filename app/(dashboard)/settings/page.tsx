import { PageHeader } from "@/components/ui/card";
import { SettingsView } from "@/components/settings/settings-view";
import { SettingsTabs } from "@/components/settings/models/settings-tabs";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <div>
      <PageHeader
        title="Settings"
        description={
          "The organization's name and address, what this server offers its sessions and models, and leaving or " +
          "deleting the organization."
        }
      />
      <SettingsTabs current="/settings" />
      <SettingsView />
    </div>
  );
}
