import { NotBuiltYet } from "@/components/not-built-yet";

export const metadata = { title: "Sessions" };

export default function SessionsPage() {
  return (
    <NotBuiltYet title="Sessions">
      <p>Watching live sessions here is coming. Meanwhile, create and drive sessions with the API:</p>
      <pre className="overflow-x-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">
        {`curl -X POST $CABIN_URL/computers -H "Authorization: Bearer $CABIN_API_KEY" \\
  -H "Content-Type: application/json" -d '{"kind":"browser"}'`}
      </pre>
    </NotBuiltYet>
  );
}
