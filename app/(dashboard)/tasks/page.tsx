import { headers } from "next/headers";
import { NewTaskForm } from "@/components/tasks/new-task-form";
import { TaskList } from "@/components/tasks/task-list";
import { Card, PageHeader } from "@/components/ui/card";
import { taskFormOptions } from "@/lib/agent/form-options";
import { currentMember } from "@/lib/auth/member";

export const metadata = { title: "Tasks" };
export const dynamic = "force-dynamic";

export default async function TasksPage() {
  // The organization's own models (Settings → Models) sit beside the server's.
  const member = await currentMember(await headers());
  return (
    <div className="space-y-6">
      <PageHeader
        title="Tasks"
        description="Agent tasks: Cabin runs the loop (screenshot, model, action) on a session of its own. Model calls count toward your organization's usage and budget."
      />
      <Card title="Start a task">
        <NewTaskForm options={taskFormOptions(member?.organizationId)} />
      </Card>
      <Card title="Tasks">
        <TaskList />
      </Card>
    </div>
  );
}
