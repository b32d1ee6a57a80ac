import { TaskPage } from "@/components/tasks/task-page";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Task ${(await params).id}` };
}

export default async function TaskRoute({ params }: { params: Promise<{ id: string }> }) {
  return <TaskPage id={(await params).id} />;
}
