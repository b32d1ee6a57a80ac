import { headers } from "next/headers";
import { NewTaskForm } from "@/components/tasks/new-task-form";
import { TaskList } from "@/components/tasks/task-list";
import { Card, PageHeader } from "@/components/ui/card";
import { taskFormOptions } from "@/lib/agent/form-options";
import { currentMember } from "@/lib/auth/member";

export const metadata = { title: "Tasks" };
export const dynamic = "force-dynamic";

/**
 * The list first (on a phone it starts on the first screen), the start form below it; `?session=` picks a session for
 * the form.
 */
export default async function TasksPage({ searchParams }: { searchParams: Promise<{ session?: string | string[] }> }) {
  const { session } = await searchParams;
  // The organization's own models (Settings → Models) sit beside the server's.
  const member = await currentMember(await headers());
  return (
    <div className="space-y-6">
      <PageHeader
        title="Tasks"
        description={
          "Agent tasks: Cabin runs the loop (screenshot, model, action) on a new session or one of yours. Model " +
          "calls count toward your organization's usage and budget."
        }
      />
      <a
        href="#start-task"
        className={
          "inline-flex rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white shadow-sm " +
          "hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 " +
          "focus-visible:outline-brand-500"
        }
      >
        Start a task
      </a>
      <Card title="Tasks">
        <TaskList />
      </Card>
      <div id="start-task" className="scroll-mt-4">
        <Card title="Start a task">
          <NewTaskForm
            options={taskFormOptions(member?.organizationId)}
            session={typeof session === "string" ? session : undefined}
          />
        </Card>
      </div>
    </div>
  );
}
