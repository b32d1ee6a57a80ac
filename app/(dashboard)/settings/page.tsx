import { NotBuiltYet } from "@/components/not-built-yet";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <NotBuiltYet title="Settings">
      <p>Organization settings are coming. Members and roles are managed on the Members page; API keys on the API keys page.</p>
    </NotBuiltYet>
  );
}
