import { CreateTeamForm } from "@/components/settings/create-team-form";

export const metadata = { title: "Create a team" };

export default function CreateTeamPage() {
  return <CreateTeamForm />;
}
