import { NotFoundProblem } from "@/components/shell/page-problem";

export const metadata = { title: "Not found" };

/** `notFound()` from a dashboard page (e.g. a session id that does not exist): already inside the shell. */
export default function DashboardNotFound() {
  return <NotFoundProblem loggedIn />;
}
